import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Plays one audio or video enclosure with GTK's media widgets (GStreamer underneath), named by
/// its entry's title and feed, with skips of 10 s back and 30 s on and a choice of speeds
/// (article/media-player.ui), and remembers per entry where it was left, so a long episode
/// resumes there.
///
/// Nothing is requested before Play is pressed: until then the player is a Play button, and
/// only then is the GtkMediaFile made, whose GStreamer pipeline opens the address at once. A
/// file shown is not a file listened to, and its host should not learn that the entry was read
/// (remote images off promises as much), nor should an entry of 200 episodes open 200 pipelines.
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
        /// The file never came up seekable: it plays from its start, and the saved position is
        /// kept for the next time rather than saved over.
        case keptForLater
    }

    static let file = "article/media-player.ui"
    /// How far the skip buttons move, in seconds: back a little to hear again, on past a digression.
    static let skipBack: Double = 10
    static let skipForward: Double = 30

    /// The player's file, which holds its widgets until the panel does.
    private let parts: BuilderFile
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The GtkMediaFile playing the enclosure's address, once Play was pressed; the player's own
    /// reference is let go in `stop()`.
    private(set) var stream: UnsafeMutablePointer<GtkMediaStream>?
    let url: URL
    /// The entry's title and its feed's, naming what plays.
    let titleLabel: UnsafeMutablePointer<GtkWidget>
    let feedLabel: UnsafeMutablePointer<GtkWidget>
    /// Shown until the file is first played: pressing it opens the file and plays it.
    let startButton: UnsafeMutablePointer<GtkWidget>
    /// Once played: audio's controls between the skip buttons, or the skip buttons under a video.
    let controls: UnsafeMutablePointer<GtkWidget>
    let backButton: UnsafeMutablePointer<GtkWidget>
    let forwardButton: UnsafeMutablePointer<GtkWidget>
    /// Shows the speed and offers the others (`PlaybackSpeed.choices`), where the file's stream can change it.
    let speedButton: UnsafeMutablePointer<GtkWidget>
    /// The speed played at, and chosen in `speedButton`'s menu (its `player.speed` action).
    private(set) var speed: Double
    private let speedAction: OpaquePointer
    /// Told when the speed is chosen in the menu, to keep it for the next file.
    var onSpeedChosen: ((Double) -> Void)?
    /// GtkMediaControls under audio, GtkVideo (with its own controls) for a video, once Play was pressed.
    private(set) var view: UnsafeMutablePointer<GtkWidget>?
    private let entryID: Int64
    private let isVideo: Bool
    private let positions: MediaPositions
    /// Says where playing will resume until it has.
    let resumeLabel: UnsafeMutablePointer<GtkWidget>
    /// Says the file is being saved to be played from the disk.
    let copyingLabel: UnsafeMutablePointer<GtkWidget>
    /// Says the file cannot be played, when GStreamer gave up on it, and why when its copy could
    /// not be fetched either. GStreamer's own words (element paths, source lines) are for a
    /// developer: they go to standard error, not here.
    let errorLabel: UnsafeMutablePointer<GtkWidget>
    /// Told when the error shows, so the file's download row says no second one for the same fault.
    var onErrorShown: (() -> Void)?
    private var restore = Restore.looking
    /// How many times the file was opened again to resume it, having come up unseekable.
    private var reopenings = 0
    /// The most times a file is opened again to seek in it: in the running reader an Ogg
    /// episode over HTTP came up unseekable about every other time, at random.
    static let maxReopenings = 5
    private var lastSaved: Double?
    private var isStopped = false
    /// The file saved in the cache and played from there, when its host would not let GStreamer stream it.
    private var localCopy: URL?
    /// Saving that copy.
    private var copying: Task<Void, Never>?
    private var hasTriedCopy = false
    /// Why the copy could not be fetched, once it could not: the message says it whichever error comes last.
    private var copyFailure: EnclosureDownload.Failure?

    /// The player of `enclosure` of the entry `entryID`, titled `title` (the entry's) from the
    /// feed `feedTitle`, playing at `speed`.
    init(enclosure: Enclosure, isVideo: Bool, entryID: Int64, title: String, feedTitle: String?, positions: MediaPositions,
         speed: Double = 1) {
        url = enclosure.url
        self.speed = PlaybackSpeed.choices.contains(speed) ? speed : 1
        self.entryID = entryID
        self.isVideo = isVideo
        self.positions = positions
        parts = BuilderFile(Self.file)
        widget = parts.widget("player")
        titleLabel = parts.widget("title")
        feedLabel = parts.widget("feed")
        startButton = parts.widget("start_button")
        controls = parts.widget("controls")
        backButton = parts.widget("back_button")
        forwardButton = parts.widget("forward_button")
        speedButton = parts.widget("speed_button")
        resumeLabel = parts.widget("resume_label")
        copyingLabel = parts.widget("copying_label")
        errorLabel = parts.widget("error_label")
        gtk_label_set_text(cast(titleLabel), title)
        gtk_label_set_text(cast(feedLabel), feedTitle ?? "")
        gtk_widget_set_visible(feedLabel, (feedTitle?.isEmpty == false).gboolean)
        // The name reads in its own direction, as the entry's row does: an English episode starts
        // at the left in an Arabic window, and the reverse.
        if let names = gtk_widget_get_parent(titleLabel) {
            Widgets.setDirection(EntryRowWidgets.direction(of: [titleLabel, feedLabel]), of: names)
        }
        // Play names the episode for screen readers, not only "Play".
        cgtk_accessible_set_description(cast(startButton), title)
        let rateType = g_variant_type_new("d")
        speedAction = g_simple_action_new_stateful("speed", rateType, g_variant_new_double(self.speed))!
        g_variant_type_free(rateType)
        showSeekable()
        setUpSpeedMenu()
        Signal.connect(cast(startButton), "clicked") { [weak self] in self?.start() }
        Signal.connect(cast(backButton), "clicked") { [weak self] in self?.skip(by: -Self.skipBack) }
        Signal.connect(cast(forwardButton), "clicked") { [weak self] in self?.skip(by: Self.skipForward) }

        Task { @MainActor [weak self, positions, url] in
            let saved = await positions.position(entryID: entryID, url: url)
            guard let self, !self.isStopped else { return }
            self.restore = saved.map { .pending($0) } ?? .done
            self.lastSaved = saved
            self.showResume()
            self.applyRestore()
        }
    }

    isolated deinit {
        g_object_unref(cast(speedAction))
    }

    /// Opens the file, puts its controls (or its video) where the Play button was, and plays it;
    /// the saved position is applied once GStreamer can seek.
    func start() {
        guard !isStopped, stream == nil else { return }
        let opened = openStream(url)
        stream = opened
        follow(opened)
        let shown: UnsafeMutablePointer<GtkWidget>
        if isVideo {
            shown = gtk_video_new_for_media_stream(opened)!
            gtk_video_set_autoplay(cast(shown), 0)
            // Tall enough to watch in the article's column; the video keeps its proportions inside.
            gtk_widget_set_size_request(shown, -1, 240)
        } else {
            shown = gtk_media_controls_new(opened)!
        }
        gtk_widget_set_hexpand(shown, 1)
        view = shown
        if isVideo {
            gtk_box_insert_child_after(cast(widget), shown, startButton)
            gtk_widget_set_halign(controls, GTK_ALIGN_CENTER)
        } else {
            gtk_box_insert_child_after(cast(controls), shown, backButton)
        }
        gtk_widget_set_visible(controls, 1)
        gtk_widget_set_visible(startButton, 0)
        gtk_media_stream_play(opened)
    }

    /// Moves playback `seconds` on (back when negative), within the file.
    func skip(by seconds: Double) {
        guard let stream, gtk_media_stream_is_seekable(stream) != 0 else { return }
        let duration = gtk_media_stream_get_duration(stream)
        var target = gtk_media_stream_get_timestamp(stream) + gint64(seconds * 1_000_000)
        target = max(0, duration > 0 ? min(duration, target) : target)
        gtk_media_stream_seek(stream, target)
    }

    /// The skip buttons work only where the file can be sought in.
    private func showSeekable() {
        let seekable = stream.map { gtk_media_stream_is_seekable($0) != 0 } ?? false
        gtk_widget_set_sensitive(backButton, seekable.gboolean)
        gtk_widget_set_sensitive(forwardButton, seekable.gboolean)
    }

    /// A new stream of the file at `url`, to play at the speed chosen.
    private func openStream(_ url: URL) -> UnsafeMutablePointer<GtkMediaStream> {
        let file = g_file_new_for_uri(url.absoluteString)
        defer { g_object_unref(cast(file)) }
        let opened = gtk_media_file_new_for_file(file)!
        GStreamer.follow(opened)
        PlaybackSpeed.prepare(opened, rate: speed)
        gtk_widget_set_visible(speedButton, PlaybackSpeed.canSet(opened).gboolean)
        return opened
    }

    /// The speed's menu: a choice of `PlaybackSpeed.choices`, the one played at marked. It is
    /// made again each time it opens, and the button's speed is kept (``LanguageTexts``), so both
    /// speak the language switched to since ("1,25×" in German).
    private func setUpSpeedMenu() {
        makeSpeedMenu()
        let player = Unmanaged.passRetained(WeakPlayer(self)).toOpaque()
        gtk_menu_button_set_create_popup_func(cast(speedButton), { _, player in
            guard let player else { return }
            MainActor.assumeIsolated { Unmanaged<WeakPlayer>.fromOpaque(player).takeUnretainedValue().player?.makeSpeedMenu() }
        }, player) { player in
            guard let player else { return }
            Unmanaged<WeakPlayer>.fromOpaque(player).release()
        }
        LanguageTexts.keep(speedButton, .property("label")) { [weak self] in PlaybackSpeed.label(self?.speed ?? 1) }
        LanguageTexts.keep(speedButton, .accessibleDescription) { [weak self] in PlaybackSpeed.label(self?.speed ?? 1) }
        Signal.connectObjectOrNil(cast(speedAction), "activate") { [weak self] parameter in
            guard let self, let parameter else { return }
            let chosen = g_variant_get_double(OpaquePointer(parameter))
            self.setSpeed(chosen)
            self.onSpeedChosen?(chosen)
        }
        let group = g_simple_action_group_new()!
        g_action_map_add_action(cast(group), cast(speedAction))
        gtk_widget_insert_action_group(widget, "player", cast(group))
        g_object_unref(cast(group))
        showSpeed()
    }

    /// Puts the menu of `PlaybackSpeed.choices`, in the current language, in the speed's button.
    private func makeSpeedMenu() {
        let menu = g_menu_new()!
        for choice in PlaybackSpeed.choices {
            let item = g_menu_item_new(PlaybackSpeed.label(choice), nil)!
            g_menu_item_set_action_and_target_value(item, "player.speed", g_variant_new_double(choice))
            g_menu_append_item(menu, item)
            g_object_unref(cast(item))
        }
        gtk_menu_button_set_menu_model(cast(speedButton), cast(menu))
        g_object_unref(cast(menu))
    }

    /// Plays at `rate` from now on, and shows it.
    func setSpeed(_ rate: Double) {
        guard PlaybackSpeed.choices.contains(rate), rate != speed else { return }
        speed = rate
        if let stream { PlaybackSpeed.set(rate, on: stream) }
        showSpeed()
    }

    private func showSpeed() {
        g_simple_action_set_state(speedAction, g_variant_new_double(speed))
        gtk_menu_button_set_label(cast(speedButton), PlaybackSpeed.label(speed))
        cgtk_accessible_set_description(cast(speedButton), PlaybackSpeed.label(speed))
    }

    /// Follows what `stream` does while it is the one played.
    private func follow(_ stream: UnsafeMutablePointer<GtkMediaStream>) {
        func on(_ signal: String, _ action: @escaping @MainActor (MediaPlayer) -> Void) {
            Signal.connectIgnoringArgument(cast(stream), signal) { [weak self] in
                guard let self, self.stream == stream else { return }
                action(self)
            }
        }
        on("notify::prepared") { $0.applyRestore() }
        on("notify::seekable") { $0.showSeekable() }
        on("notify::playing") { $0.playingChanged() }
        on("notify::timestamp") { $0.timestampChanged() }
        on("notify::ended") { $0.endedChanged() }
        on("notify::error") { $0.showError() }
    }

    /// Where playback is, in seconds.
    var seconds: Double {
        stream.map { Double(gtk_media_stream_get_timestamp($0)) / 1_000_000 } ?? 0
    }

    /// Pauses playback, if it was started.
    func pause() {
        if let stream { gtk_media_stream_pause(stream) }
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

    /// Says where playing will resume, until it has.
    private func showResume() {
        guard case let .pending(position) = restore else {
            gtk_widget_set_visible(resumeLabel, 0)
            return
        }
        // TRANSLATORS: %@ is where a podcast episode or video was left, such as 12:07.
        gtk_label_set_text(cast(resumeLabel), tr("Resumes at %@").filling(phrase: Self.clock(position)))
        gtk_widget_set_visible(resumeLabel, 1)
    }

    /// Seeks to the saved position once it is known and the file is ready for it.
    private func applyRestore() {
        guard !isStopped, case let .pending(position) = restore, let stream, gtk_media_stream_is_prepared(stream) != 0 else { return }
        guard gtk_media_stream_is_seekable(stream) != 0 else {
            guard reopenings < Self.maxReopenings else {
                restore = .keptForLater
                gtk_widget_set_visible(resumeLabel, 0)
                return
            }
            // GTK 4.8's GStreamer backend decides once, at GStreamer's first position report,
            // whether it can seek, at times before GStreamer knows (a host that refused byte
            // ranges, an Ogg file still being probed) and never again: opened anew, it usually
            // can. Until then nothing is saved, so playing from the start never overwrites where
            // it was left.
            reopenings += 1
            // Not from inside the stream's own notification that it is prepared.
            Task { @MainActor [weak self] in self?.reopen() }
            return
        }
        restore = .done
        gtk_widget_set_visible(resumeLabel, 0)
        gtk_media_stream_seek(stream, Int(position * 1_000_000))
    }

    /// Plays the file from a new stream: GTK never prepares a stream a second time, so the old
    /// one would stay unseekable even with its file opened again.
    private func reopen() {
        guard let old = stream else { return }
        replaceStream(playing: gtk_media_stream_get_playing(old) != 0)
    }

    /// Opens the file anew (the local copy once there is one) in a new stream in the same controls.
    private func replaceStream(playing: Bool) {
        guard !isStopped, let old = stream, let view else { return }
        let opened = openStream(localCopy ?? url)
        stream = opened
        follow(opened)
        if isVideo {
            gtk_video_set_media_stream(cast(view), opened)
        } else {
            gtk_media_controls_set_media_stream(cast(view), opened)
        }
        Self.close(old)
        showSeekable()
        // Playing goes on in the new stream, from where it was left once it can seek.
        if playing { gtk_media_stream_play(opened) }
    }

    /// Where copies of files played from the disk are kept while they play.
    static var copiesFolder: URL {
        URL(fileURLWithPath: String(cString: g_get_user_cache_dir()), isDirectory: true)
            .appendingPathComponent("feed-reader/playing", isDirectory: true)
    }

    /// Saves the file into the cache and plays it from there. GStreamer takes byte ranges for
    /// granted unless a host says "Accept-Ranges: none", so a host that ignores them (Python's
    /// http.server, many small sites) fails as soon as an Ogg file is probed for its length. The
    /// copy goes when the player does.
    private func playFromCopy() {
        hasTriedCopy = true
        gtk_widget_set_visible(copyingLabel, 1)
        let download = EnclosureDownload(url: url, into: Self.copiesFolder) { _ in }
        copying = Task { @MainActor [weak self] in
            let saved: URL?
            var failure: EnclosureDownload.Failure?
            do throws(EnclosureDownload.Failure) {
                saved = try await download.start()
            } catch {
                saved = nil
                failure = error
            }
            guard let self, !self.isStopped else {
                if let saved { try? FileManager.default.removeItem(at: saved) }
                return
            }
            gtk_widget_set_visible(self.copyingLabel, 0)
            self.copying = nil
            guard let saved else {
                self.copyFailure = failure
                return self.showError()
            }
            self.localCopy = saved
            self.replaceStream(playing: true)
        }
    }

    /// Ends `stream`'s GStreamer pipeline and its connection now, not whenever the widgets are
    /// freed, and lets go of the player's reference; the main thread waits on nothing of
    /// GStreamer's (``GStreamer/close(_:)``). No pause first: a stopped GstPlayer (one that gave
    /// up on its file) opens the file again to pause it.
    private static func close(_ stream: UnsafeMutablePointer<GtkMediaStream>) {
        if GStreamer.shared?.close(stream) == true { return }
        // Another backend's stream.
        gtk_media_file_clear(UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GtkMediaFile.self))
        g_object_unref(cast(stream))
    }

    private func playingChanged() {
        guard !isStopped, let stream, gtk_media_stream_get_playing(stream) == 0 else { return }
        savePosition()
    }

    /// While playing, saves every `saveInterval`; paused, saves each move (a seek, or the last
    /// position GStreamer reports after the pause).
    private func timestampChanged() {
        guard !isStopped, let stream else { return }
        if gtk_media_stream_get_playing(stream) == 0 || abs(seconds - (lastSaved ?? 0)) >= Self.saveInterval { savePosition() }
    }

    private func endedChanged() {
        guard !isStopped, isRestored, let stream, gtk_media_stream_get_ended(stream) != 0 else { return }
        // Played to the end: next time it starts again from the beginning.
        lastSaved = nil
        positions.save(nil, entryID: entryID, url: url)
    }

    private func savePosition() {
        // Mid-seek the stream still reports where it was (the start, while a restore seeks); a
        // stream in error (the network gone, say) is at its start and knows nothing of the file.
        guard isRestored, let stream, gtk_media_stream_is_prepared(stream) != 0, gtk_media_stream_is_seeking(stream) == 0,
              gtk_media_stream_get_ended(stream) == 0, gtk_media_stream_get_error(stream) == nil else { return }
        let now = seconds
        guard now != lastSaved else { return }
        lastSaved = now
        positions.save(now, entryID: entryID, url: url)
    }

    /// Says the file cannot be played, and why when fetching its copy failed too, in one message;
    /// while the copy is fetched, GStreamer's further errors wait for it.
    private func showError() {
        guard !isStopped, copying == nil else { return }
        if let error = stream.flatMap({ gtk_media_stream_get_error($0) }) {
            FileHandle.standardError.write(Data("feed-reader: \(url.absoluteString) cannot be played: \(String(cString: error.pointee.message))\n".utf8))
        }
        if !hasTriedCopy, Enclosure.isWebAddress(url) { return playFromCopy() }
        let cannotPlay = tr("This file cannot be played.")
        gtk_label_set_text(cast(errorLabel), copyFailure.map { cannotPlay + " " + MediaDownloads.sentence(for: $0, url: url) } ?? cannotPlay)
        gtk_widget_set_visible(errorLabel, 1)
        gtk_widget_set_visible(controls, 0)
        if let view { gtk_widget_set_visible(view, 0) }
        onErrorShown?()
    }

    /// Hides the error: the download row has just said why the same file fails.
    func hideError() {
        gtk_widget_set_visible(errorLabel, 0)
    }

    /// Saves where playback is and lets the file go, as when another entry is shown or the
    /// window closes; the player is done then.
    func stop() {
        guard !isStopped else { return }
        savePosition()
        isStopped = true
        if let stream { Self.close(stream) }
        copying?.cancel()
        if let localCopy { try? FileManager.default.removeItem(at: localCopy) }
    }
}

/// A player held weakly, for the speed button's menu maker, which the button keeps as long as it lives.
private final class WeakPlayer {
    weak var player: MediaPlayer?

    init(_ player: MediaPlayer) { self.player = player }
}
