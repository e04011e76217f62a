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
    /// Its items come in sections, as GNOME's menus group them: reading (mark read, full article,
    /// muting), then arranging (move, rename, address, properties), then removing, alone at the end.
    /// A synced feed's menu offers what its server can do (moving among the account's folders,
    /// unsubscribing; Fever neither), an account's folder marking read; renaming and subscribing
    /// into an account are not offered here.
    func menu(for item: FeedSelection) -> OpaquePointer? {
        let sections = MenuSections()
        let isLocal = outline.account(of: item) == nil
        switch item {
        case let .feed(feedID):
            let target = { g_variant_new_int64(gint64(feedID)) }
            sections.add(tr("Mark All as Read"), "win.mark-feed-read", target(), to: .reading)
            if let feed = model.feed(id: feedID) {
                FullArticleSetting.appendItem(to: sections.menu(.reading), for: feed, window: gtk_widget_get_root(widget))
            }
            sections.add(tr("Mute Entries Like This…"), "win.mute-feed", target(), to: .reading)
            if let accountID = outline.account(of: item) {
                addServerActions(forFeed: feedID, in: accountID, to: sections)
                return sections.menu()
            }
            let move = MenuSections.submenu()
            sections.add(tr("No Folder"), "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: nil), to: move)
            for folder in folders {
                sections.add(pathName(of: folder.id), "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: folder.id), to: move)
            }
            sections.add(tr("New Folder…"), "win.move-to-new-folder", target(), to: move)
            sections.addSubmenu(tr("Move to Folder"), move, to: .arranging)
            sections.add(tr("Rename Feed…"), "win.rename-feed", target(), to: .arranging)
            sections.add(tr("Edit Address…"), "win.edit-feed-address", target(), to: .arranging)
            sections.add(tr("Properties…"), "win.feed-properties", target(), to: .arranging)
            sections.add(tr("Remove Feed…"), "win.remove-feed", target(), to: .removing)
        case let .folder(folderID) where isLocal:
            let move = MenuSections.submenu()
            let inside = folders.subtree(of: folderID)
            sections.add(tr("No Folder"), "win.move-folder", Self.moveTarget(folderID: folderID, parentID: nil), to: move)
            for folder in folders where !inside.contains(folder.id) {
                sections.add(pathName(of: folder.id), "win.move-folder", Self.moveTarget(folderID: folderID, parentID: folder.id), to: move)
            }
            sections.add(tr("Rename Folder…"), "win.rename-folder", g_variant_new_int64(gint64(folderID)), to: .arranging)
            sections.addSubmenu(tr("Move to Folder"), move, to: .arranging)
            sections.add(tr("Delete Folder…"), "win.delete-folder", g_variant_new_int64(gint64(folderID)), to: .removing)
        case let .folder(folderID):
            // An account's folder is its server's category: marked read there too, all at once.
            sections.add(tr("Mark All as Read"), "win.mark-folder-read", g_variant_new_int64(gint64(folderID)), to: .reading)
        case let .account(accountID):
            sections.add(tr("Mark All as Read"), "win.mark-account-read", g_variant_new_int64(gint64(accountID)), to: .reading)
        case let .savedSearch(id):
            sections.add(tr("Rename Search…"), "win.rename-saved-search", g_variant_new_int64(gint64(id)), to: .arranging)
            sections.add(tr("Delete Search"), "win.delete-saved-search", g_variant_new_int64(gint64(id)), to: .removing)
        case let .label(labelID):
            sections.add(tr("Rename Label…"), "win.rename-label", g_variant_new_int64(gint64(labelID)), to: .arranging)
            sections.add(tr("Delete Label…"), "win.delete-label", g_variant_new_int64(gint64(labelID)), to: .removing)
        case .all, .starred, .labelsHeading:
            return nil
        }
        return sections.menu()
    }

    /// Moving a synced feed among its account's folders and removing it, where its service can;
    /// its Properties, with what is this computer's.
    private func addServerActions(forFeed feedID: Int64, in accountID: Int64, to sections: MenuSections) {
        guard let account = model.accounts.first(where: { $0.account.id == accountID }),
              let capabilities = SyncEngine.knownServices.first(where: { $0.kind == account.account.kind })?.capabilities else { return }
        if capabilities.canMoveFeeds {
            let move = MenuSections.submenu()
            sections.add(tr("No Folder"), "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: nil), to: move)
            for folder in account.folders {
                sections.add(folder.name, "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: folder.id), to: move)
            }
            sections.addSubmenu(tr("Move to Folder"), move, to: .arranging)
        }
        sections.add(tr("Properties…"), "win.feed-properties", g_variant_new_int64(gint64(feedID)), to: .arranging)
        if capabilities.canUnsubscribe {
            sections.add(tr("Remove Feed…"), "win.remove-feed", g_variant_new_int64(gint64(feedID)), to: .removing)
        }
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

/// A row's context menu in its sections, filled in any order and put together in theirs by
/// ``menu()``, which ends it; a section with no item is left out.
@MainActor
final class MenuSections {
    enum Section: CaseIterable {
        /// Reading the row's entries: mark read, full article, muting.
        case reading
        /// Arranging the row: move, rename, its address and properties.
        case arranging
        /// Removing or deleting it, apart from the rest.
        case removing
    }

    private var menus: [Section: OpaquePointer] = [:]

    /// The section's menu, made on first use.
    func menu(_ section: Section) -> OpaquePointer {
        if let menu = menus[section] { return menu }
        let menu = g_menu_new()!
        menus[section] = menu
        return menu
    }

    func add(_ label: String, _ action: String, _ target: OpaquePointer?, to section: Section) {
        add(label, action, target, to: menu(section))
    }

    /// Appends an item to `menu`, a section's or a submenu.
    func add(_ label: String, _ action: String, _ target: OpaquePointer?, to menu: OpaquePointer) {
        let item = g_menu_item_new(label, nil)!
        g_menu_item_set_action_and_target_value(item, action, target)
        g_menu_append_item(menu, item)
        g_object_unref(cast(item))
    }

    /// Appends `submenu` to `section` under `label`, and lets go of it.
    func addSubmenu(_ label: String, _ submenu: OpaquePointer, to section: Section) {
        g_menu_append_submenu(menu(section), label, cast(submenu))
        g_object_unref(cast(submenu))
    }

    /// A new submenu, for ``addSubmenu(_:_:to:)``.
    static func submenu() -> OpaquePointer { g_menu_new()! }

    /// The menu, its sections in order; nil when none has an item. The caller owns it.
    func menu() -> OpaquePointer? {
        let menu = g_menu_new()!
        for section in Section.allCases {
            guard let items = menus.removeValue(forKey: section) else { continue }
            if g_menu_model_get_n_items(cast(items)) > 0 { g_menu_append_section(menu, nil, cast(items)) }
            // The menu holds the section now.
            g_object_unref(cast(items))
        }
        guard g_menu_model_get_n_items(cast(menu)) > 0 else {
            g_object_unref(cast(menu))
            return nil
        }
        return menu
    }
}
