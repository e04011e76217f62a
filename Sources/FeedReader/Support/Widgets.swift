import AppSignals
import CAdw
import CGtk
import RefreshGtk

/// Small constructors for the widgets the app builds by hand.
@MainActor
enum Widgets {
    static func label(_ text: String, classes: [String] = [], xalign: Float = 0) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(text)!
        gtk_label_set_xalign(cast(label), xalign)
        for name in classes { gtk_widget_add_css_class(label, name) }
        return label
    }

    static func box(_ orientation: GtkOrientation, spacing: Int32 = 0,
                    _ children: [UnsafeMutablePointer<GtkWidget>] = []) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(orientation, spacing)!
        for child in children { gtk_box_append(cast(box), child) }
        return box
    }

    /// An expander titled "Details" over a selectable label, for what only a developer needs to read.
    static func detailsExpander() -> (expander: UnsafeMutablePointer<GtkWidget>, label: UnsafeMutablePointer<GtkWidget>) {
        let label = Widgets.label("", classes: ["dim-label", "caption"])
        gtk_label_set_wrap(cast(label), 1)
        gtk_label_set_wrap_mode(cast(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_selectable(cast(label), 1)
        let expander = gtk_expander_new(nil)!
        gtk_expander_set_child(cast(expander), label)
        nameDetails(expander: expander, label: label)
        return (expander, label)
    }

    /// Titles a details expander in the current language. GTK 4.8 names neither an expander by its
    /// title nor the selectable label inside it for screen readers, so both get the name too.
    static func nameDetails(expander: UnsafeMutablePointer<GtkWidget>, label: UnsafeMutablePointer<GtkWidget>) {
        gtk_expander_set_label(cast(expander), tr("Details"))
        cgtk_accessible_set_label(cast(expander), tr("Details"))
        cgtk_accessible_set_label(cast(label), tr("Details"))
    }

    /// Sets `direction` on `widget` and everything in it (a title, a placeholder, the text): a
    /// GTK widget takes no direction from its parent, only the default one.
    static func setDirection(_ direction: GtkTextDirection, of widget: UnsafeMutablePointer<GtkWidget>) {
        forEach(in: widget) { gtk_widget_set_direction($0, direction) }
    }

    /// Makes `field`, an entry row or an entry that takes an address, run left to right in
    /// every language: its text, caret and placeholder, which start where the address does. An
    /// entry row's title stays in the window's direction, as the titles of the rows around it.
    static func setLeftToRight(address field: UnsafeMutablePointer<GtkWidget>) {
        let isRow = g_type_check_instance_is_a(cast(field), adw_entry_row_get_type()) != 0
        guard isRow, let text = gtk_editable_get_delegate(cast(field)) else { return setDirection(GTK_TEXT_DIR_LTR, of: field) }
        setDirection(GTK_TEXT_DIR_LTR, of: cast(text))
    }

    /// Calls `body` with `widget`, then with each widget inside it, depth first.
    static func forEach(in widget: UnsafeMutablePointer<GtkWidget>, _ body: (UnsafeMutablePointer<GtkWidget>) -> Void) {
        body(widget)
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            forEach(in: current, body)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    static func setMargins(_ widget: UnsafeMutablePointer<GtkWidget>, horizontal: Int32, vertical: Int32) {
        gtk_widget_set_margin_start(widget, horizontal)
        gtk_widget_set_margin_end(widget, horizontal)
        gtk_widget_set_margin_top(widget, vertical)
        gtk_widget_set_margin_bottom(widget, vertical)
    }

    /// Adds a window action named `name` (use "win.name"), optionally taking an int64 parameter.
    static func addAction(to window: UnsafeMutablePointer<GtkWidget>, _ name: String, withInt64 takesID: Bool = false,
                          _ handler: @escaping @MainActor (Int64) -> Void) {
        let type = takesID ? g_variant_type_new("x") : nil
        defer { if let type { g_variant_type_free(type) } }
        let action = g_simple_action_new(name, type)!
        Signal.connectObjectOrNil(cast(action), "activate") { parameter in
            handler(parameter.map { Int64(g_variant_get_int64(OpaquePointer($0))) } ?? 0)
        }
        g_action_map_add_action(cast(window), cast(action))
        g_object_unref(cast(action))
    }

    /// Adds the window action `name`, taking a "(xx)" pair of IDs.
    static func addAction(to window: UnsafeMutablePointer<GtkWidget>, _ name: String,
                          withInt64Pair handler: @escaping @MainActor (Int64, Int64) -> Void) {
        let pair = g_variant_type_new("(xx)")
        defer { g_variant_type_free(pair) }
        let action = g_simple_action_new(name, pair)!
        Signal.connectObjectOrNil(cast(action), "activate") { parameter in
            guard let parameter else { return }
            let tuple = OpaquePointer(parameter)
            let (first, second) = (g_variant_get_child_value(tuple, 0)!, g_variant_get_child_value(tuple, 1)!)
            defer { g_variant_unref(first); g_variant_unref(second) }
            handler(Int64(g_variant_get_int64(first)), Int64(g_variant_get_int64(second)))
        }
        g_action_map_add_action(cast(window), cast(action))
        g_object_unref(cast(action))
    }

    /// Names an icon-only control for everyone: a tooltip for the pointer, the same text as its
    /// accessible label for screen readers (which otherwise read the icon's "GtkImage").
    static func name(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        gtk_widget_set_tooltip_text(widget, text)
        cgtk_accessible_set_label(cast(widget), text)
    }

    /// Pops `menu` up at (x, y) of `widget`, taking over the caller's reference to it.
    static func popUpMenu(_ menu: OpaquePointer, on widget: UnsafeMutablePointer<GtkWidget>, x: Double, y: Double) {
        let popover = gtk_popover_menu_new_from_model(cast(menu))!
        g_object_unref(cast(menu))
        gtk_widget_set_parent(popover, widget)
        var point = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(cast(popover), &point)
        gtk_popover_set_has_arrow(cast(popover), 0)
        Signal.connect(cast(popover), "closed") {
            // The list's row took the right click's press as its own, and the menu its release:
            // GTK 4.8 would leave the row drawn pressed.
            var ancestor: UnsafeMutablePointer<GtkWidget>? = widget
            while let current = ancestor {
                gtk_widget_unset_state_flags(current, GTK_STATE_FLAG_ACTIVE)
                ancestor = gtk_widget_get_parent(current)
            }
            unparentSoon(popover)
        }
        gtk_popover_popup(cast(popover))
    }

    /// Unparents a closed `popover` once the main loop turns (after the action its closing ran),
    /// then runs `then`; unless its parent went first (a list rebuilt, a window closed) and took
    /// it along: held until then.
    static func unparentSoon(_ popover: UnsafeMutablePointer<GtkWidget>, then: @escaping @MainActor () -> Void = {}) {
        let held = ObjectRef(retaining: popover)
        MainThread.after(0) {
            if gtk_widget_get_parent(held.pointer) != nil { gtk_widget_unparent(held.pointer) }
            then()
        }
    }

    /// Names a status page's scrolling area, which screen readers reach, after the page's title:
    /// libadwaita 1.2 leaves it unnamed.
    static func nameScrolling(statusPage: OpaquePointer, _ title: String) {
        guard let scrolling = gtk_widget_get_first_child(UnsafeMutablePointer(statusPage)) else { return }
        cgtk_accessible_set_label(cast(scrolling), title)
    }
}
