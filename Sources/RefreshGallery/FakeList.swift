import CGtk
import RefreshGtk

/// A scrolled GtkListView of made-up rows (or cards, when horizontal) that fake loads add to.
@MainActor
final class FakeList {
    let list: TextList
    var listView: UnsafeMutablePointer<GtkWidget> { list.listView }
    var scrolled: UnsafeMutablePointer<GtkWidget> { list.scrolledWindow }
    let isHorizontal: Bool
    private var created = 0
    private var fresh = 0

    init(items: Int, horizontal: Bool = false) {
        isHorizontal = horizontal
        // The model lives as long as this: a fake load may still finish after its window closed.
        list = TextList(orientation: horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL) { label in
            guard horizontal else {
                gtk_widget_set_size_request(label, -1, 44)
                gtk_label_set_xalign(cast(label), 0)
                gtk_widget_set_margin_start(label, 16)
                gtk_widget_set_margin_end(label, 16)
                return label
            }
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
            return card
        }
        gtk_list_view_set_show_separators(cast(listView), (!horizontal).gboolean)
        gtk_scrolled_window_set_policy(cast(scrolled), horizontal ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER,
                                       horizontal ? GTK_POLICY_NEVER : GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_hexpand(scrolled, 1)
        append(items)
    }

    var count: Int { list.count }

    /// Adds `count` older items at the end, as a load of more would.
    func append(_ count: Int) {
        let texts = (0..<count).map { _ in nextText() }
        list.insert(texts, at: list.count)
    }

    /// Adds `count` new items at the start, as a refresh would.
    func prepend(_ count: Int) {
        fresh += 1
        let texts = (1...count).map { isHorizontal ? "New card \(fresh).\($0)" : "New entry \(fresh).\($0)" }
        list.insert(texts, at: 0)
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
