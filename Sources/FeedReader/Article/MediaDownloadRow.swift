import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// One enclosure's name and size with a button that saves it to the Downloads folder, its
/// progress with a cancel button while it runs, and then where it went or why it did not.
@MainActor
final class MediaDownloadRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let downloadButton: UnsafeMutablePointer<GtkWidget>
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    let progressBar: UnsafeMutablePointer<GtkWidget>
    let statusLabel: UnsafeMutablePointer<GtkWidget>
    private let nameLabel: UnsafeMutablePointer<GtkWidget>
    private let details: (expander: UnsafeMutablePointer<GtkWidget>, label: UnsafeMutablePointer<GtkWidget>)
    /// The row's file, which holds its widgets until the panel does.
    private let parts: BuilderFile
    private let enclosure: Enclosure
    private let downloads: MediaDownloads
    /// Told when a failure shows, so the player above says no second one for the same file.
    var onFailureShown: (() -> Void)?

    init(enclosure: Enclosure, downloads: MediaDownloads) {
        self.enclosure = enclosure
        self.downloads = downloads
        parts = BuilderFile("article/media-download-row.ui")
        widget = parts.widget("row")
        nameLabel = parts.widget("name")
        downloadButton = parts.widget("download_button")
        cancelButton = parts.widget("cancel_button")
        progressBar = parts.widget("progress")
        statusLabel = parts.widget("status")
        details = (parts.widget("details_expander"), parts.widget("details_label"))
        let name = EnclosureDownload.fileName(for: enclosure.url)
        let size = enclosure.length.map { Self.formatted(size: $0) }
        gtk_label_set_text(cast(nameLabel), size.map { "\(name) · \($0)" } ?? name)

        Signal.connect(cast(downloadButton), "clicked") { [weak self] in
            guard let self else { return }
            self.downloads.start(self.enclosure.url)
        }
        Signal.connect(cast(cancelButton), "clicked") { [weak self] in
            guard let self else { return }
            self.downloads.cancel(self.enclosure.url)
        }
        show(.idle)
        downloads.observe(enclosure.url) { [weak self] state in self?.show(state) }
    }

    /// A size as GNOME writes it, such as "30.5 MB", in the current language.
    static func formatted(size bytes: Int64) -> String {
        guard let text = g_format_size(guint64(max(0, bytes))) else { return String(bytes) }
        defer { g_free(text) }
        return String(cString: text)
    }

    private func show(_ state: MediaDownloads.State) {
        let running: Bool
        var status: String?
        var failure: String?
        var detailText: String?
        switch state {
        case .idle:
            running = false
        case let .running(progress):
            running = true
            let received = Self.formatted(size: progress.received)
            if let fraction = progress.fraction, let expected = progress.expected {
                gtk_progress_bar_set_fraction(cast(progressBar), fraction)
                // TRANSLATORS: a download's progress, such as "1.2 MB of 30.5 MB".
                gtk_progress_bar_set_text(cast(progressBar), tr("%1$@ of %2$@").filling(received, Self.formatted(size: expected)))
            } else {
                // No size from the server (or no answer yet): the bar moves without a share.
                gtk_progress_bar_set_fraction(cast(progressBar), 0)
                gtk_progress_bar_pulse(cast(progressBar))
                gtk_progress_bar_set_text(cast(progressBar), progress.received > 0 ? received : "")
            }
        case .cancelled:
            running = false
            status = tr("The download was cancelled.")
        case let .saved(file):
            running = false
            // TRANSLATORS: %@ is the path of the downloaded file, such as /home/ada/Downloads/episode.mp3.
            status = tr("Saved as %@").filling(file.path)
        case let .failed(error):
            running = false
            failure = MediaDownloads.sentence(for: error, url: enclosure.url)
            detailText = MediaDownloads.details(for: error)
        }
        gtk_widget_set_visible(progressBar, running.gboolean)
        gtk_widget_set_visible(cancelButton, running.gboolean)
        gtk_widget_set_visible(downloadButton, (!running).gboolean)
        gtk_label_set_text(cast(statusLabel), failure ?? status ?? "")
        gtk_widget_set_visible(statusLabel, (failure != nil || status != nil).gboolean)
        if failure != nil {
            gtk_widget_add_css_class(statusLabel, "error")
        } else {
            gtk_widget_remove_css_class(statusLabel, "error")
        }
        gtk_label_set_text(cast(details.label), detailText ?? "")
        gtk_widget_set_visible(details.expander, (detailText != nil).gboolean)
        if failure != nil { onFailureShown?() }
    }

    /// Hides a failure shown: the player has just said why the same file fails, one message for the one fault.
    func hideFailure() {
        guard gtk_widget_has_css_class(statusLabel, "error") != 0 else { return }
        gtk_widget_set_visible(statusLabel, 0)
        gtk_widget_set_visible(details.expander, 0)
    }
}
