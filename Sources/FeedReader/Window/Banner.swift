import CGtk
import RefreshGtk

/// A dismissable bar above the entries for what the user must act on (storage or settings trouble
/// found at start, a damaged database), until dismissed: a sentence for people, and the technical
/// details behind an expander for those who ask. Short notices are toasts (Toasts).
@MainActor
final class Banner {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let detailsExpander: UnsafeMutablePointer<GtkWidget>
    private let detailsLabel: UnsafeMutablePointer<GtkWidget>
    private let closeButton: UnsafeMutablePointer<GtkWidget>
    private let box: UnsafeMutablePointer<GtkWidget>

    static let file = "widgets/banner.ui"

    init() {
        let file = BuilderFile(Self.file)
        widget = file.object("banner")
        // The builder's reference ends with it: the bar holds its own until the window takes it.
        g_object_ref(cast(widget))
        box = file.object("box")
        label = file.object("message")
        detailsExpander = file.object("details_expander")
        detailsLabel = file.object("details_label")
        closeButton = file.object("close_button")
        Signal.connect(cast(closeButton), "clicked") { [weak self] in self?.hide() }
        retranslate()
    }

    isolated deinit {
        g_object_unref(cast(widget))
    }

    /// Sets the bar's own texts in the current language.
    func retranslate() {
        Widgets.name(closeButton, tr("Dismiss"))
        Widgets.nameDetails(expander: detailsExpander, label: detailsLabel)
        cgtk_accessible_set_label(cast(box), tr("Problem"))
    }

    var message: String? {
        gtk_revealer_get_reveal_child(cast(widget)) != 0 ? String(cString: gtk_label_get_text(cast(label))) : nil
    }

    /// The technical details shown on request, or nil when there are none or the bar is hidden.
    var details: String? {
        message != nil && gtk_widget_get_visible(detailsExpander) != 0 ? String(cString: gtk_label_get_text(cast(detailsLabel))) : nil
    }

    /// Shows `text`, a sentence in the person's language, with `details` (error codes, paths)
    /// folded away under "Details".
    func show(_ text: String, details: String? = nil) {
        gtk_label_set_text(cast(label), text)
        // Selectable (so it can be copied) once it has a text: an empty focusable label would be
        // a nameless stop for a screen reader.
        gtk_label_set_selectable(cast(label), 1)
        gtk_label_set_text(cast(detailsLabel), details ?? "")
        gtk_expander_set_expanded(cast(detailsExpander), 0)
        gtk_widget_set_visible(detailsExpander, details == nil ? 0 : 1)
        gtk_revealer_set_reveal_child(cast(widget), 1)
    }

    /// Unfolds the details, as a click on "Details" does.
    func expandDetails() { gtk_expander_set_expanded(cast(detailsExpander), 1) }

    func hide() { gtk_revealer_set_reveal_child(cast(widget), 0) }
}
