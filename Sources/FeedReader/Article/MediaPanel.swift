import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The entry's podcast episodes and videos above its article: a player for each of the first
/// `maxPlayers` audio or video enclosures, named by the entry and its feed, and for every
/// enclosure a button saving it to the Downloads folder. Its pictures
/// (image enclosures, Media RSS thumbnails) go into the article's page, `imagesHTML`.
@MainActor
final class MediaPanel {
    /// The most players an entry shows; its other episodes can be downloaded. Each player that
    /// plays costs a GStreamer pipeline (threads, descriptors, a connection): an entry of 200
    /// episodes once ran the app out of file descriptors.
    static let maxPlayers = 3

    let widget: UnsafeMutablePointer<GtkWidget>
    let positions = MediaPositions()
    /// Where the speed chosen in a player is kept for the next one; normal speed without it.
    var preferences: Preferences?
    let downloads = MediaDownloads()
    /// The players of the entry shown, in the feed's order.
    private(set) var players: [MediaPlayer] = []
    /// The download rows of the entry shown, in the feed's order.
    private(set) var downloadRows: [MediaDownloadRow] = []
    private var watchesWindow = false
    /// The entry shown, with its feed's title.
    private var shown: (entry: StoredEntry, feedTitle: String?)?

    init() {
        widget = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        Widgets.setMargins(widget, horizontal: 12, vertical: 8)
        gtk_widget_set_visible(widget, 0)
        // Closing the window saves where each file was left and ends its playback.
        Signal.connect(cast(widget), "destroy") { [weak self] in self?.removeAll() }
        Signal.connect(cast(widget), "realize") { [weak self] in self?.watchWindow() }
    }

    /// A window closed to run in the background is only hidden: what plays in it pauses (and
    /// so saves where it was) rather than go on where nobody can stop it.
    private func watchWindow() {
        guard !watchesWindow, let window = gtk_widget_get_root(widget) else { return }
        watchesWindow = true
        Signal.connectIgnoringArgument(cast(window), "notify::visible") { [weak self] in
            guard let self, gtk_widget_get_visible(cast(window)) == 0 else { return }
            for player in self.players { player.pause() }
        }
    }

    /// Shows the media of `entry` of the feed titled `feedTitle`, saving where the previous
    /// entry's files were left.
    func show(_ entry: StoredEntry, feedTitle: String?) {
        removeAll()
        shown = (entry, feedTitle)
        let title = entry.title?.isEmpty == false ? entry.title! : tr("Untitled")
        for enclosure in entry.enclosures where !enclosure.isThumbnail && Enclosure.isWebAddress(enclosure.url) {
            let kind = enclosure.kind
            // Pictures show in the article.
            guard kind != .image else { continue }
            let row = MediaDownloadRow(enclosure: enclosure, downloads: downloads)
            downloadRows.append(row)
            guard kind == .audio || kind == .video, players.count < Self.maxPlayers else {
                // Other files (PDFs, archives), and episodes past the first few, can only be saved.
                gtk_box_append(cast(widget), row.widget)
                continue
            }
            let player = MediaPlayer(enclosure: enclosure, isVideo: kind == .video, entryID: entry.id, title: title,
                                     feedTitle: feedTitle, positions: positions, speed: preferences?.playbackSpeed ?? 1)
            // A speed chosen is the listener's: it stays for the entry's other files and the next ones.
            player.onSpeedChosen = { [weak self] speed in
                guard let self else { return }
                self.preferences?.playbackSpeed = speed
                for other in self.players { other.setSpeed(speed) }
            }
            players.append(player)
            // One message for the file at a time: the latest of the player's and the download's.
            player.onErrorShown = { [weak row] in row?.hideFailure() }
            row.onFailureShown = { [weak player] in player?.hideError() }
            // The file's name and download button under the controls, above any playback error.
            gtk_box_insert_child_after(cast(player.widget), row.widget, player.controls)
            gtk_box_append(cast(widget), player.widget)
        }
        gtk_widget_set_visible(widget, (gtk_widget_get_first_child(widget) != nil).gboolean)
    }

    /// Stops the players (saving their positions) and empties the panel; downloads go on.
    func removeAll() {
        shown = nil
        for player in players { player.stop() }
        players = []
        downloadRows = []
        downloads.removeObservers()
        while let child = gtk_widget_get_first_child(widget) {
            gtk_box_remove(cast(widget), child)
        }
        gtk_widget_set_visible(widget, 0)
    }

    /// Builds the players and rows again, in the language chosen now; what played resumes where it was left.
    func rebuild() {
        if let shown { show(shown.entry, feedTitle: shown.feedTitle) }
    }

    /// The pictures among an entry's `enclosures` that its `body` does not show already, as
    /// figures for the end of the article: image enclosures first, then thumbnails.
    nonisolated static func imagesHTML(for enclosures: [Enclosure], body: String) -> String {
        let pictures = enclosures.filter { $0.kind == .image && Enclosure.isWebAddress($0.url) }
        return (pictures.filter { !$0.isThumbnail } + pictures.filter(\.isThumbnail)).compactMap { picture in
            let address = Markup.escaped(picture.url.absoluteString)
            guard !body.contains(address) else { return nil }
            return "<figure class=\"enclosure\"><img src=\"\(address)\" alt=\"\"></figure>"
        }.joined()
    }
}
