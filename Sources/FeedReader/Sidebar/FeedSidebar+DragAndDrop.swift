import AppSignals
import CGtk
import FeedCore
import RefreshGtk

/// Dragging a local feed or folder onto a local folder, or onto All Feeds to take it out of any.
/// An account's rows are neither dragged nor take drops: moving a synced feed or dropping a local
/// one into an account (subscribing it there) goes through the account's server, not the sidebar.
extension FeedSidebar {
    /// Lets a row be dragged, carrying its item (a ``SidebarItem``). The content is made when the
    /// drag starts, from the item the widgets show then.
    func makeDraggable(_ widgets: SidebarRowWidgets) {
        let drag = gtk_drag_source_new()!
        gtk_drag_source_set_actions(drag, GDK_ACTION_MOVE)
        Signal.connectReturningObject(cast(drag), "prepare") { [weak self] _, _ in
            guard let self, let item = widgets.sidebarItem, self.isDraggable(item.selection) else { return nil }
            var value = GValue()
            g_value_init(&value, SidebarItem.type.gtype)
            g_value_set_object(&value, item.object)
            defer { g_value_unset(&value) }
            return UnsafeMutableRawPointer(gdk_content_provider_new_for_value(&value))
        }
        gtk_widget_add_controller(widgets.box, cast(drag))
    }

    /// A local feed or folder; not All Feeds, Starred, nor an account's rows.
    private func isDraggable(_ item: FeedSelection) -> Bool {
        switch item {
        case .feed, .folder: outline.account(of: item) == nil
        case .all, .starred, .account, .savedSearch, .label, .labelsHeading: false
        }
    }

    /// Lets a local feed's or folder's row be dropped on a local folder's row, moving it into the
    /// folder, or on All Feeds, moving it out of any. A folder is refused on itself and on the
    /// folders inside it; the other rows take nothing.
    func acceptDrops(on widgets: SidebarRowWidgets) {
        let target = gtk_drop_target_new(SidebarItem.type.gtype, GDK_ACTION_MOVE)!
        Signal.connectDrop(cast(target), "drop") { [weak self] value, _, _ in
            guard let self, let dragged = g_value_get_object(value), let item = widgets.item else { return false }
            return self.drop(SidebarItem(dragged).selection, on: item)
        }
        // Only rows of this sidebar are taken, and only on All Feeds and local folders: a file from
        // another program passes on to the window (which imports an OPML file dropped anywhere on it).
        Signal.connectObjectReturningBool(cast(target), "accept") { [weak self] drop in
            guard let self, gdk_drop_get_drag(OpaquePointer(drop)) != nil,
                  gdk_content_formats_contain_gtype(gdk_drop_get_formats(OpaquePointer(drop)), SidebarItem.type.gtype) != 0,
                  let item = widgets.item else { return false }
            return self.folderTakingDrops(item) != nil
        }
        gtk_widget_add_controller(widgets.box, cast(target))
    }

    /// For a row that takes drops: the folder it stands for (nil inside: All Feeds, the top).
    private func folderTakingDrops(_ item: FeedSelection) -> Int64?? {
        switch item {
        case .all: .some(nil)
        case let .folder(id) where outline.account(of: item) == nil: .some(id)
        default: nil
        }
    }

    /// Moves `dragged` into the folder `item` stands for; false when it cannot go there.
    func drop(_ dragged: FeedSelection, on item: FeedSelection) -> Bool {
        guard isDraggable(dragged), case let .some(folderID) = folderTakingDrops(item) else { return false }
        switch dragged {
        case let .feed(feedID):
            onMoveFeed?(feedID, folderID)
        case let .folder(id):
            if let folderID, folders.subtree(of: id).contains(folderID) { return false }
            onMoveFolder?(id, folderID)
        case .all, .starred, .account, .savedSearch, .label, .labelsHeading:
            return false
        }
        return true
    }
}
