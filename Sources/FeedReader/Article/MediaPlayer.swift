import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Plays one audio or video enclosure with GTK's media widgets (GStreamer underneath) and
/// remembers per entry where it was left, so a long episode resumes there.
@MainActor
final class MediaPlayer {
    /// How far playback moves on between saves of its position while it plays, in seconds: a
    /// crash or power cut loses at most that much.
    static let saveInterval: Double = 5

    /// Whether the saved position is known and applied yet; until then nothing is saved, so the
    /// start of the file never overwrites where it was left. GTK 4.8's GStreamer backend often says a
    /// file is prepared (and so seekable) only once it plays, so a saved position is applied then.
    private enum Restore {
        case looking
        case pending(Double)
        case done
    }

    let widget: UnsafeMutablePointer<GtkWidget>
    /// The GtkMediaFile playing the enclosure's address; the player's own reference is let go in `stop()`.
    let stream: UnsafeMutablePointer<GtkMediaStream>
    let url: URL
    /// GtkMediaControls under audio, GtkVideo (with its own controls) for a video.
    let view: UnsafeMutablePointer<GtkWidget>
    private let entryID: Int64
    private let positions: MediaPositions
    /// Says where playing will resume until it has.
    let resumeLabel: UnsafeMutablePointer<GtkWidget>
    /// Says the file cannot be played, when GStreamer gave up on it.
    let errorLabel: UnsafeMutablePointer<GtkWidget>
    private let details: (expander: UnsafeMutablePointer<GtkWidget>, label: UnsafeMutablePointer<GtkWidget>)
    private var restore = Restore.looking
    private var lastSaved: Double?
    private var isStopped = false

    init(enclosure: Enclosure, isVideo: Bool, entryID: Int64, positions: MediaPositions) {
        url = enclosure.url
        self.entryID = entryID
        self.positions = positions
        let file = g_file_new_for_uri(enclosure.url.absoluteString)
        stream = gtk_media_file_new_for_file(file)!
        g_object_unref(cast(file))
        if isVideo {
            view = gtk_video_new_for_media_stream(stream)!
            gtk_video_set_autoplay(cast(view), 0)
            // Tall enough to watch in the article's column; the video keeps its proportions inside.
            gtk_widget_set_size_request(view, -1, 240)
        } else {
            view = gtk_media_controls_new(stream)!
        }
        gtk_widget_set_hexpand(view, 1)
        resumeLabel = Widgets.label("", classes: ["caption", "dim-label"])
        errorLabel = Widgets.label("", classes: ["error"])
        gtk_label_set_wrap(cast(errorLabel), 1)
        details = Widgets.detailsExpander()
        widget = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [view, resumeLabel, errorLabel, details.expander])
        gtk_widget_set_visible(resumeLabel, 0)
        gtk_widget_set_visible(errorLabel, 0)
        gtk_widget_set_visible(details.expander, 0)

        Signal.connectIgnoringArgument(cast(stream), "notify::prepared") { [weak self] in self?.applyRestore() }
        Signal.connectIgnoringArgument(cast(stream), "notify::playing") { [weak self] in self?.playingChanged() }
        Signal.connectIgnoringArgument(cast(stream), "notify::timestamp") { [weak self] in self?.timestampChanged() }
        Signal.connectIgnoringArgument(cast(stream), "notify::ended") { [weak self] in self?.endedChanged() }
        Signal.connectIgnoringArgument(cast(stream), "notify::error") { [weak self] in self?.showError() }

        Task { @MainActor [weak self, positions, url] in
            let saved = await positions.position(entryID: entryID, url: url)
            guard let self, !self.isStopped else { return }
            self.restore = saved.map { .pending($0) } ?? .done
            self.lastSaved = saved
            self.retranslate()
            self.applyRestore()
        }
        retranslate()
    }

    /// Where playback is, in seconds.
    var seconds: Double {
        Double(gtk_media_stream_get_timestamp(stream)) / 1_000_000
    }

    /// Whether the saved position (if any) has been applied.
    var isRestored: Bool {
        if case .done = restore { return true }
        return false
    }

    /// Whether the saved position has been looked up.
    var knowsSavedPosition: Bool {
        if case .looking = restore { return false }
        return true
    }

    /// A position as a media player's clock shows it: "2:07", "1:02:07".
    static func clock(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    func retranslate() {
        if case let .pending(position) = restore {
            // TRANSLATORS: %@ is where a podcast episode or video was left, such as 12:07.
            gtk_label_set_text(cast(resumeLabel), tr("Resumes at %@").filling(phrase: Self.clock(position)))
            gtk_widget_set_visible(resumeLabel, 1)
        } else {
            gtk_widget_set_visible(resumeLabel, 0)
        }
        gtk_label_set_text(cast(errorLabel), tr("This file cannot be played."))
        Widgets.nameDetails(expander: details.expander, label: details.label)
    }

    /// Seeks to the saved position once it is known and the file is ready for it.
    private func applyRestore() {
        guard !isStopped, case let .pending(position) = restore, gtk_media_stream_is_prepared(stream) != 0 else { return }
        restore = .done
        gtk_widget_set_visible(resumeLabel, 0)
        guard gtk_media_stream_is_seekable(stream) != 0 else { return }
        gtk_media_stream_seek(stream, Int(position * 1_000_000))
    }

    private func playingChanged() {
        guard !isStopped, gtk_media_stream_get_playing(stream) == 0 else { return }
        savePosition()
    }

    /// While playing, saves every `saveInterval`; paused, saves each move (a seek, or the last
    /// position GStreamer reports after the pause).
    private func timestampChanged() {
        guard !isStopped else { return }
        if gtk_media_stream_get_playing(stream) == 0 || abs(seconds - (lastSaved ?? 0)) >= Self.saveInterval { savePosition() }
    }

    private func endedChanged() {
        guard !isStopped, isRestored, gtk_media_stream_get_ended(stream) != 0 else { return }
        // Played to the end: next time it starts again from the beginning.
        lastSaved = nil
        positions.save(nil, entryID: entryID, url: url)
    }

    private func savePosition() {
        // Mid-seek the stream still reports where it was (the start, while a restore seeks); a
        // stream in error (the network gone, say) is at its start and knows nothing of the file.
        guard isRestored, gtk_media_stream_is_prepared(stream) != 0, gtk_media_stream_is_seeking(stream) == 0,
              gtk_media_stream_get_ended(stream) == 0, gtk_media_stream_get_error(stream) == nil else { return }
        let now = seconds
        guard now != lastSaved else { return }
        lastSaved = now
        positions.save(now, entryID: entryID, url: url)
    }

    private func showError() {
        guard !isStopped, let error = gtk_media_stream_get_error(stream) else { return }
        gtk_label_set_text(cast(details.label), String(cString: error.pointee.message))
        gtk_widget_set_visible(errorLabel, 1)
        gtk_widget_set_visible(details.expander, 1)
        gtk_widget_set_visible(view, 0)
    }

    /// Saves where playback is and lets the file go, as when another entry is shown or the
    /// window closes; the player is done then.
    func stop() {
        guard !isStopped else { return }
        savePosition()
        isStopped = true
        gtk_media_stream_pause(stream)
        // Ends the GStreamer pipeline and its connection now, not whenever the widgets are freed.
        gtk_media_file_clear(UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GtkMediaFile.self))
        g_object_unref(cast(stream))
    }
}
