import CGtk
import RefreshGtk

/// A dismissable bar above the entries for what went wrong, while the cached entries stay visible.
@MainActor
final class Banner {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let closeButton: UnsafeMutablePointer<GtkWidget>
    private let box: UnsafeMutablePointer<GtkWidget>

    init() {
        label = Widgets.label("")
        gtk_label_set_wrap(cast(label), 1)
        gtk_widget_set_hexpand(label, 1)
        let close = gtk_button_new_from_icon_name("window-close-symbolic")!
        closeButton = close
        gtk_widget_add_css_class(close, "flat")
        gtk_widget_set_valign(close, GTK_ALIGN_CENTER)
        let icon = gtk_image_new_from_icon_name("dialog-warning-symbolic")!
        box = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 10, [icon, label, close])
        gtk_widget_add_css_class(box, "refresh-banner")
        widget = gtk_revealer_new()
        gtk_revealer_set_child(cast(widget), box)
        Signal.connect(cast(close), "clicked") { [weak self] in self?.hide() }
        retranslate()
    }

    /// Sets the bar's own texts in the current language.
    func retranslate() {
        Widgets.name(closeButton, tr("Dismiss"))
        cgtk_accessible_set_label(cast(box), tr("Problem"))
    }

    var message: String? {
        gtk_revealer_get_reveal_child(cast(widget)) != 0 ? String(cString: gtk_label_get_text(cast(label))) : nil
    }

    func show(_ text: String) {
        gtk_label_set_text(cast(label), text)
        gtk_revealer_set_reveal_child(cast(widget), 1)
    }

    func hide() { gtk_revealer_set_reveal_child(cast(widget), 0) }
}
