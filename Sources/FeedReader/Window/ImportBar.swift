import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// A bar above the entries while subscriptions are imported: how many new feeds have been
/// fetched, then what the import did, until dismissed.
@MainActor
final class ImportBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    let progressBar: UnsafeMutablePointer<GtkWidget>
    private let closeButton: UnsafeMutablePointer<GtkWidget>
    /// Makes the text shown, again when the language changes.
    private var text: () -> String = { "" }

    static let file = "widgets/import-bar.ui"

    init() {
        let file = BuilderFile(Self.file)
        widget = file.object("import_bar")
        // The builder's reference ends with it: the bar holds its own until the window takes it.
        g_object_ref(cast(widget))
        label = file.object("message")
        progressBar = file.object("progress_bar")
        closeButton = file.object("close_button")
        Signal.connect(cast(closeButton), "clicked") { [weak self] in self?.hide() }
        retranslate()
    }

    isolated deinit {
        g_object_unref(cast(widget))
    }

    func retranslate() {
        Widgets.name(closeButton, tr("Dismiss"))
        gtk_label_set_text(cast(label), text())
    }

    /// The text shown, or nil when the bar is hidden.
    var message: String? {
        gtk_revealer_get_reveal_child(cast(widget)) != 0 ? String(cString: gtk_label_get_text(cast(label))) : nil
    }

    /// The fraction of new feeds fetched so far.
    var fraction: Double { gtk_progress_bar_get_fraction(cast(progressBar)) }

    /// Shows that `done` of `total` new feeds have been fetched.
    func showProgress(done: Int, total: Int) {
        show { Self.progress(done: done, total: total) }
        gtk_progress_bar_set_fraction(cast(progressBar), total > 0 ? Double(done) / Double(total) : 0)
        gtk_widget_set_visible(progressBar, 1)
        gtk_widget_set_visible(closeButton, 0)
        gtk_revealer_set_reveal_child(cast(widget), 1)
    }

    /// Shows what an import or export did, until dismissed.
    func showMessage(_ text: @escaping @autoclosure () -> String) {
        show(text)
        gtk_widget_set_visible(progressBar, 0)
        gtk_widget_set_visible(closeButton, 1)
        gtk_revealer_set_reveal_child(cast(widget), 1)
    }

    /// "Importing subscriptions: 3 of 12 new feeds fetched…", in the user's language.
    static func progress(done: Int, total: Int) -> String {
        // TRANSLATORS: progress of an import; the first %d is the feeds fetched so far, the second all new feeds, which the form agrees with.
        trn("Importing subscriptions: %d of %d new feed fetched…", "Importing subscriptions: %d of %d new feeds fetched…", total)
            .filling(count: done, of: total)
    }

    /// What an import did, in sentences.
    static func summary(of report: FeedLibrary.ImportReport) -> String {
        var sentences = [trn("%d subscription was imported.", "%d subscriptions were imported.", report.added)
            .filling(count: report.added)]
        if report.duplicates > 0 {
            sentences.append(trn("%d subscription already in the list was skipped.", "%d subscriptions already in the list were skipped.", report.duplicates)
                .filling(count: report.duplicates))
        }
        if report.failedFetches > 0 {
            sentences.append(trn("%d feed could not be fetched yet.", "%d feeds could not be fetched yet.", report.failedFetches)
                .filling(count: report.failedFetches))
        }
        return sentences.joined(separator: " ")
    }

    /// "12 subscriptions were exported to /path/file.opml", in the user's language.
    static func exported(_ count: Int, to file: LocalFile) -> String {
        // TRANSLATORS: %d is the number of subscriptions, %@ the file's path.
        trn("%d subscription was exported to %@.", "%d subscriptions were exported to %@.", count)
            .filling(count: count).filling(file.displayName)
    }

    func hide() { gtk_revealer_set_reveal_child(cast(widget), 0) }

    private func show(_ text: @escaping () -> String) {
        self.text = text
        gtk_label_set_text(cast(label), text())
    }
}
