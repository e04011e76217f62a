import CGtk
import RefreshGtk

/// A bar above the entries, until dismissed: trouble the user must act on (`problem`: storage or
/// settings trouble found at start, a damaged database), a sentence for people with the
/// technical details folded away; or an import's progress and then what it did (`progress`).
/// Short notices are toasts (Toasts).
@MainActor
final class NoticeBar {
    /// What the bar says, each kind from its own file.
    enum Kind: String {
        case problem = "notices/problem-bar.ui"
        case progress = "notices/progress-bar.ui"
    }

    /// The bar's actions, as its buttons name them (`notice.dismiss`).
    enum Action: String, PartAction {
        case dismiss
    }

    let kind: Kind
    /// The revealer the window holds; its content is built again on a language switch.
    let widget: UnsafeMutablePointer<GtkWidget>
    private var label: UnsafeMutablePointer<GtkWidget>
    private var detailsExpander: UnsafeMutablePointer<GtkWidget>?
    private var detailsLabel: UnsafeMutablePointer<GtkWidget>?
    private(set) var progressBar: UnsafeMutablePointer<GtkWidget>?
    private var closeButton: UnsafeMutablePointer<GtkWidget>
    private var actions: PartActions<Action>!
    /// Makes the text shown, again when the language changes.
    private var text: () -> String = { "" }

    init(_ kind: Kind) {
        self.kind = kind
        let file = BuilderFile(kind.rawValue)
        widget = file.widget("bar")
        // The builder's reference ends with it: the bar holds its own until the window takes it.
        g_object_ref(cast(widget))
        (label, detailsExpander, detailsLabel, progressBar, closeButton) = Self.parts(of: file, kind)
        actions = PartActions(on: widget, prefix: "notice") { [weak self] action in
            switch action {
            case .dismiss: self?.hide()
            }
        }
    }

    isolated deinit {
        g_object_unref(cast(widget))
    }

    private static func parts(of file: BuilderFile, _ kind: Kind) -> (UnsafeMutablePointer<GtkWidget>, UnsafeMutablePointer<GtkWidget>?,
                                                                       UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GtkWidget>?,
                                                                       UnsafeMutablePointer<GtkWidget>) {
        (file.widget("message"), kind == .problem ? file.widget("details_expander") : nil,
         kind == .problem ? file.widget("details_label") : nil, kind == .progress ? file.widget("progress_bar") : nil,
         file.widget("close_button"))
    }

    /// Builds the bar's content again from its file, in the language now chosen, saying what it
    /// said (its message made again) with its details, progress and revealed state kept.
    func rebuild() {
        let details = detailsLabel.map { String(cString: gtk_label_get_text(cast($0))) }
        let hasDetails = detailsExpander.map { gtk_widget_get_visible($0) != 0 } ?? false
        let fraction = progressBar.map { gtk_progress_bar_get_fraction(cast($0)) }
        let showsProgress = progressBar.map { gtk_widget_get_visible($0) != 0 } ?? false
        let closable = gtk_widget_get_visible(closeButton) != 0
        let file = BuilderFile(kind.rawValue)
        let box = file.widget("box")
        g_object_ref(cast(box))
        gtk_revealer_set_child(cast(file.widget("bar")), nil)
        gtk_revealer_set_child(cast(widget), box)
        g_object_unref(cast(box))
        (label, detailsExpander, detailsLabel, progressBar, closeButton) = Self.parts(of: file, kind)
        show(text)
        if let detailsLabel, let detailsExpander {
            gtk_label_set_text(cast(detailsLabel), details ?? "")
            gtk_widget_set_visible(detailsExpander, hasDetails.gboolean)
        }
        if let progressBar, let fraction {
            gtk_progress_bar_set_fraction(cast(progressBar), fraction)
            gtk_widget_set_visible(progressBar, showsProgress.gboolean)
        }
        gtk_widget_set_visible(closeButton, closable.gboolean)
    }

    /// The text shown, or nil when the bar is hidden.
    var message: String? {
        gtk_revealer_get_reveal_child(cast(widget)) != 0 ? String(cString: gtk_label_get_text(cast(label))) : nil
    }

    /// The technical details shown on request, or nil when there are none or the bar is hidden.
    var details: String? {
        guard message != nil, let detailsExpander, let detailsLabel, gtk_widget_get_visible(detailsExpander) != 0 else { return nil }
        return String(cString: gtk_label_get_text(cast(detailsLabel)))
    }

    /// The fraction of new feeds fetched so far.
    var fraction: Double { progressBar.map { gtk_progress_bar_get_fraction(cast($0)) } ?? 0 }

    /// Shows `text`, a sentence in the person's language (made again after a language switch),
    /// with `details` (error codes, paths) folded away under "Details", until dismissed.
    func show(_ text: @escaping @autoclosure () -> String, details: String? = nil) {
        show(text)
        if let detailsLabel, let detailsExpander {
            gtk_label_set_text(cast(detailsLabel), details ?? "")
            gtk_expander_set_expanded(cast(detailsExpander), 0)
            gtk_widget_set_visible(detailsExpander, (details != nil).gboolean)
        }
        if let progressBar { gtk_widget_set_visible(progressBar, 0) }
        gtk_widget_set_visible(closeButton, 1)
        gtk_revealer_set_reveal_child(cast(widget), 1)
    }

    /// Shows that `done` of `total` new feeds have been fetched; the bar cannot be dismissed meanwhile.
    func showProgress(done: Int, total: Int) {
        show { SubscriptionsReport.progress(done: done, total: total) }
        if let progressBar {
            gtk_progress_bar_set_fraction(cast(progressBar), total > 0 ? Double(done) / Double(total) : 0)
            gtk_widget_set_visible(progressBar, 1)
        }
        gtk_widget_set_visible(closeButton, 0)
        gtk_revealer_set_reveal_child(cast(widget), 1)
    }

    /// Unfolds the details, as a click on "Details" does.
    func expandDetails() {
        if let detailsExpander { gtk_expander_set_expanded(cast(detailsExpander), 1) }
    }

    func hide() { gtk_revealer_set_reveal_child(cast(widget), 0) }

    private func show(_ text: @escaping () -> String) {
        self.text = text
        gtk_label_set_text(cast(label), text())
        // Selectable (so it can be copied) once it has a text: an empty focusable label would be
        // a nameless stop for a screen reader.
        gtk_label_set_selectable(cast(label), 1)
    }
}
