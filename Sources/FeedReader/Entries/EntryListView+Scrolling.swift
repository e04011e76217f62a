import CGtk
import FeedCore
import RefreshGtk

/// Where the list is scrolled to, for marking read what scrolled past its top, and the menu's
/// items that mark read the entries above or below one.
extension EntryListView {
    /// The list's vertical scroll position.
    var verticalAdjustment: UnsafeMutablePointer<GtkAdjustment>? { gtk_scrollable_get_vadjustment(cast(listView)) }

    /// The position of the first entry not yet wholly scrolled past the top of the list: every
    /// entry above it has been. Read from the rows GTK has bound (a screenful and a little
    /// around it), never from all the list's, so it costs the same at any length.
    var firstPositionBelowTop: Int {
        guard let adjustment = verticalAdjustment,
              gtk_adjustment_get_value(adjustment) - gtk_adjustment_get_lower(adjustment) >= 0.5 else { return 0 }
        var first: Int?
        for (listItem, widgets) in boundRows {
            guard let row = gtk_widget_get_parent(widgets.box), gtk_widget_get_mapped(row) != 0 else { continue }
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(row, listView, &bounds) != 0, bounds.origin.y + bounds.size.height > 0 else { continue }
            let position = Int(gtk_list_item_get_position(cast(listItem)))
            if position < (first ?? .max) { first = position }
        }
        return min(first ?? 0, order.count)
    }

    /// The unread entries listed at `positions`.
    func unreadListed(in positions: Range<Int>) -> [Int64] {
        order[positions.clamped(to: order.indices)].filter { entries[$0]?.isRead == false }
    }

    /// The context menu's items that mark read what is listed above or below the entry `id`
    /// (the first entry has nothing above it).
    func markAroundItems(for id: Int64) -> [(String, String)] {
        let above = order.first == id ? [] : [(tr("Mark Above as Read"), "win.mark-above-read")]
        return above + [(tr("Mark Below as Read"), "win.mark-below-read")]
    }
}
