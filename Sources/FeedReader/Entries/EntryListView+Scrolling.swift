import CGtk
import FeedCore
import RefreshGtk

/// Where the list is scrolled to, for marking read what scrolled past its top, and the menu's
/// items that mark read the entries above or below one.
extension EntryListView {
    /// The list's vertical scroll position.
    var verticalAdjustment: UnsafeMutablePointer<GtkAdjustment>? { gtk_scrollable_get_vadjustment(cast(listView)) }

    /// The position of the first entry not yet wholly scrolled past the top of the list: every
    /// entry above it has been. Its row is found at the list's top edge as a pointer there would
    /// find it, so it costs the same at any length; where the edge falls in the margin between two
    /// rows, the row whose content shows a few pixels lower is that entry.
    var firstPositionBelowTop: Int {
        guard let adjustment = verticalAdjustment,
              gtk_adjustment_get_value(adjustment) - gtk_adjustment_get_lower(adjustment) >= 0.5 else { return 0 }
        let x = Double(gtk_widget_get_width(listView)) / 2
        for y in stride(from: 0.5, to: Self.rowMarginsDepth, by: 4) {
            if let id = entryID(atX: x, y: y), let position = order.firstIndex(of: id) { return position }
        }
        return 0
    }

    /// Deeper than the margins between two rows' contents.
    private static let rowMarginsDepth = 48.0

    /// The entry whose row's content is at (`x`, `y`) in the list, if one is there.
    private func entryID(atX x: Double, y: Double) -> Int64? {
        var widget = gtk_widget_pick(listView, x, y, GTK_PICK_DEFAULT)
        while let current = widget, current != listView {
            if let row = ObjectData.get(current, EntryRowWidgets.listItemKey, as: EntryRowWidgets.self) { return row.item?.id }
            widget = gtk_widget_get_parent(current)
        }
        return nil
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
