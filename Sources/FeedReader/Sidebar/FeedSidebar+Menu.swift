import CGtk
import FeedCore
import RefreshGtk

/// The context menus of the rows: a right click, a long press, Shift+F10 or the Menu key.
extension FeedSidebar {
    /// A right click (or long press) on a feed or folder offers to mark it read, move or remove it.
    func showMenu(on widgets: SidebarRowWidgets, x: Double, y: Double) {
        guard let item = widgets.item, let menu = menu(for: item) else { return }
        Widgets.popUpMenu(menu, on: widgets.box, x: x, y: y)
    }

    /// Opens the selected row's menu, as a right click on it would (Shift+F10 or the Menu key).
    func showMenuForSelection() {
        guard let widgets = rowWidgets(showing: selection) else { return }
        showMenu(on: widgets, x: Double(gtk_widget_get_width(widgets.box)) / 2, y: Double(gtk_widget_get_height(widgets.box)) / 2)
    }

    /// The context menu of a feed's, a folder's or an account's row; nil for the other rows.
    /// A synced feed's menu offers what its server can do (moving among the account's folders,
    /// unsubscribing; Fever neither), an account's folder marking read; renaming and subscribing
    /// into an account are not offered here.
    func menu(for item: FeedSelection) -> OpaquePointer? {
        let menu = g_menu_new()!
        func add(_ label: String, _ action: String, _ target: OpaquePointer, to menu: OpaquePointer) {
            let item = g_menu_item_new(label, nil)!
            g_menu_item_set_action_and_target_value(item, action, target)
            g_menu_append_item(menu, item)
            g_object_unref(cast(item))
        }
        let isLocal = outline.account(of: item) == nil
        switch item {
        case let .feed(feedID):
            add(tr("Mark All as Read"), "win.mark-feed-read", g_variant_new_int64(gint64(feedID)), to: menu)
            if let feed = model.feed(id: feedID) { FullArticleSetting.appendItem(to: menu, for: feed, window: gtk_widget_get_root(widget)) }
            add(tr("Mute Entries Like This…"), "win.mute-feed", g_variant_new_int64(gint64(feedID)), to: menu)
            if let accountID = outline.account(of: item) {
                addServerActions(forFeed: feedID, in: accountID, to: menu, add: add)
                return menu
            }
            let move = g_menu_new()!
            add(tr("No Folder"), "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: nil), to: move)
            for folder in folders {
                add(pathName(of: folder.id), "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: folder.id), to: move)
            }
            add(tr("New Folder…"), "win.move-to-new-folder", g_variant_new_int64(gint64(feedID)), to: move)
            g_menu_append_submenu(menu, tr("Move to Folder"), cast(move))
            g_object_unref(cast(move))
            add(tr("Rename Feed…"), "win.rename-feed", g_variant_new_int64(gint64(feedID)), to: menu)
            add(tr("Edit Address…"), "win.edit-feed-address", g_variant_new_int64(gint64(feedID)), to: menu)
            add(tr("Remove Feed…"), "win.remove-feed", g_variant_new_int64(gint64(feedID)), to: menu)
            add(tr("Properties…"), "win.feed-properties", g_variant_new_int64(gint64(feedID)), to: menu)
        case let .folder(folderID) where isLocal:
            add(tr("Rename Folder…"), "win.rename-folder", g_variant_new_int64(gint64(folderID)), to: menu)
            let move = g_menu_new()!
            let inside = folders.subtree(of: folderID)
            add(tr("No Folder"), "win.move-folder", Self.moveTarget(folderID: folderID, parentID: nil), to: move)
            for folder in folders where !inside.contains(folder.id) {
                add(pathName(of: folder.id), "win.move-folder", Self.moveTarget(folderID: folderID, parentID: folder.id), to: move)
            }
            g_menu_append_submenu(menu, tr("Move to Folder"), cast(move))
            g_object_unref(cast(move))
            add(tr("Delete Folder…"), "win.delete-folder", g_variant_new_int64(gint64(folderID)), to: menu)
        case let .folder(folderID):
            // An account's folder is its server's category: marked read there too, all at once.
            add(tr("Mark All as Read"), "win.mark-folder-read", g_variant_new_int64(gint64(folderID)), to: menu)
        case let .account(accountID):
            add(tr("Mark All as Read"), "win.mark-account-read", g_variant_new_int64(gint64(accountID)), to: menu)
        case let .savedSearch(id):
            add(tr("Rename Search…"), "win.rename-saved-search", g_variant_new_int64(gint64(id)), to: menu)
            add(tr("Delete Search"), "win.delete-saved-search", g_variant_new_int64(gint64(id)), to: menu)
        case let .label(labelID):
            add(tr("Rename Label…"), "win.rename-label", g_variant_new_int64(gint64(labelID)), to: menu)
            add(tr("Delete Label…"), "win.delete-label", g_variant_new_int64(gint64(labelID)), to: menu)
        case .all, .starred, .labelsHeading:
            g_object_unref(cast(menu))
            return nil
        }
        return menu
    }

    /// Moving a synced feed among its account's folders and removing it, where its service can;
    /// its Properties, with what is this computer's.
    private func addServerActions(forFeed feedID: Int64, in accountID: Int64, to menu: OpaquePointer,
                                  add: (String, String, OpaquePointer, OpaquePointer) -> Void) {
        guard let account = model.accounts.first(where: { $0.account.id == accountID }),
              let capabilities = SyncEngine.knownServices.first(where: { $0.kind == account.account.kind })?.capabilities else { return }
        if capabilities.canMoveFeeds {
            let move = g_menu_new()!
            add(tr("No Folder"), "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: nil), move)
            for folder in account.folders {
                add(folder.name, "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: folder.id), move)
            }
            g_menu_append_submenu(menu, tr("Move to Folder"), cast(move))
            g_object_unref(cast(move))
        }
        if capabilities.canUnsubscribe {
            add(tr("Remove Feed…"), "win.remove-feed", g_variant_new_int64(gint64(feedID)), menu)
        }
        add(tr("Properties…"), "win.feed-properties", g_variant_new_int64(gint64(feedID)), menu)
    }

    /// A local folder's name after the names of the folders it is in: "Tech › Linux".
    func pathName(of folderID: Int64) -> String {
        var names: [String] = []
        var next: Int64? = folderID
        while let id = next, let folder = folders.first(where: { $0.id == id }), names.count < folders.count {
            names.insert(folder.name, at: 0)
            next = folder.parentID
        }
        return names.joined(separator: " › ")
    }

    /// The "(xx)" parameter of win.move-to-folder: the feed, and the folder (0 for none).
    static func moveTarget(feedID: Int64, folderID: Int64?) -> OpaquePointer {
        var children: [OpaquePointer?] = [g_variant_new_int64(gint64(feedID)), g_variant_new_int64(gint64(folderID ?? 0))]
        return g_variant_new_tuple(&children, 2)
    }

    /// The "(xx)" parameter of win.move-folder: the folder, and the folder to put it in (0 for none).
    static func moveTarget(folderID: Int64, parentID: Int64?) -> OpaquePointer {
        moveTarget(feedID: folderID, folderID: parentID)
    }
}
