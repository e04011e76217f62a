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
        show { SubscriptionsReport.progress(done: done, total: total) }
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

    func hide() { gtk_revealer_set_reveal_child(cast(widget), 0) }

    private func show(_ text: @escaping () -> String) {
        self.text = text
        gtk_label_set_text(cast(label), text())
    }
}
