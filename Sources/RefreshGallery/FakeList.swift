import CGtk
import RefreshGtk

/// A scrolled GtkListView of made-up rows (or cards, when horizontal) that fake loads add to.
@MainActor
final class FakeList {
    let model: OpaquePointer
    let listView: UnsafeMutablePointer<GtkWidget>
    let scrolled: UnsafeMutablePointer<GtkWidget>
    let isHorizontal: Bool
    private var created = 0
    private var fresh = 0

    init(items: Int, horizontal: Bool = false) {
        isHorizontal = horizontal
        model = gtk_string_list_new(nil)
        // Kept past the list view's life: a fake load may still finish after its window closed.
        g_object_ref(cast(model))
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectObject(cast(factory), "setup") { item in
            let label = gtk_label_new(nil)!
            if horizontal {
                // A framed card with room around it, so the row reads as a shelf of cards.
                gtk_label_set_wrap(cast(label), 1)
                gtk_label_set_justify(cast(label), GTK_JUSTIFY_CENTER)
                let card = gtk_frame_new(nil)!
                gtk_frame_set_child(cast(card), label)
                gtk_widget_set_size_request(card, 120, 160)
                gtk_widget_set_valign(card, GTK_ALIGN_CENTER)
                for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
                             gtk_widget_set_margin_end] {
                    side(card, 8)
                }
                gtk_list_item_set_child(cast(item), card)
            } else {
                gtk_widget_set_size_request(label, -1, 44)
                gtk_label_set_xalign(cast(label), 0)
                gtk_widget_set_margin_start(label, 16)
                gtk_widget_set_margin_end(label, 16)
                gtk_list_item_set_child(cast(item), label)
            }
        }
        Signal.connectObject(cast(factory), "bind") { item in
            guard let object = gtk_list_item_get_item(cast(item)),
                  let child = gtk_list_item_get_child(cast(item)),
                  let label = horizontal ? gtk_frame_get_child(cast(child)) : child else { return }
            gtk_label_set_text(cast(label), gtk_string_object_get_string(cast(object)))
        }
        // The selection model takes the list model; the list view takes both.
        listView = gtk_list_view_new(cast(gtk_no_selection_new(cast(model))), factory)
        if horizontal { gtk_orientable_set_orientation(cast(listView), GTK_ORIENTATION_HORIZONTAL) }
        gtk_list_view_set_show_separators(cast(listView), (!horizontal).gboolean)
        scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(cast(scrolled), horizontal ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER,
                                       horizontal ? GTK_POLICY_NEVER : GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(cast(scrolled), listView)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_hexpand(scrolled, 1)
        append(items)
    }

    isolated deinit { g_object_unref(cast(model)) }

    var count: Int { Int(g_list_model_get_n_items(cast(model))) }

    /// Adds `count` older items at the end, as a load of more would.
    func append(_ count: Int) {
        let texts = (0..<count).map { _ in nextText() }
        withCStringArray(texts) { gtk_string_list_splice(model, guint(self.count), 0, $0) }
    }

    /// Adds `count` new items at the start, as a refresh would.
    func prepend(_ count: Int) {
        fresh += 1
        let texts = (1...count).map { isHorizontal ? "New card \(fresh).\($0)" : "New entry \(fresh).\($0)" }
        withCStringArray(texts) { gtk_string_list_splice(model, 0, 0, $0) }
        // The list keeps its first row in view; a refresh shows what arrived above it instead.
        let adjustment = isHorizontal ? gtk_scrollable_get_hadjustment(cast(listView))
                                      : gtk_scrollable_get_vadjustment(cast(listView))
        if let adjustment { gtk_adjustment_set_value(adjustment, gtk_adjustment_get_lower(adjustment)) }
    }

    private func nextText() -> String {
        created += 1
        return isHorizontal ? "Card \(created)" : "Fake entry \(created)"
    }
}
