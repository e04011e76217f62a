import CGtk
import FeedCore
import RefreshGtk

/// What the sidebar can select: every feed, the starred entries, a folder of feeds, or one feed.
enum FeedSelection: Hashable {
    case all
    case starred
    case folder(Int64)
    case feed(Int64)

    /// The feed selected, or nil for the lists that span several feeds.
    var feedID: Int64? {
        if case let .feed(id) = self { return id }
        return nil
    }

    /// The folder selected, or nil.
    var folderID: Int64? {
        if case let .folder(id) = self { return id }
        return nil
    }
}

/// What a row of the sidebar carries when dragged: a feed or a folder, as "feed:ID" or "folder:ID".
enum SidebarDrag: Hashable {
    case feed(Int64)
    case folder(Int64)

    init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let id = Int64(parts[1]) else { return nil }
        switch parts[0] {
        case "feed": self = .feed(id)
        case "folder": self = .folder(id)
        default: return nil
        }
    }

    var text: String {
        switch self {
        case let .feed(id): "feed:\(id)"
        case let .folder(id): "folder:\(id)"
        }
    }
}

/// The subscriptions: "All Feeds", "Starred", the feeds outside folders, then each folder with
/// its feeds and the folders inside it under it, a step in; a folder can be collapsed. Each row
/// has its unread count (a folder's counts all below it) and any fetch error.
@MainActor
final class FeedSidebar {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// Kept alive with this object: subscription reloads may finish after the window closed.
    private let listRef: ObjectRef<UnsafeMutablePointer<GtkWidget>>
    private var list: UnsafeMutablePointer<GtkWidget> { listRef.pointer }
    /// What each row shows, by row index.
    private var rowItems: [FeedSelection] = []
    private var isRebuilding = false
    private(set) var selection = FeedSelection.all
    /// The folders, each before the folders inside it.
    private(set) var folders: [StoredFolder] = []
    /// The folders whose contents are hidden.
    var collapsed: Set<Int64> = []

    /// The feed selected, or nil when "All Feeds" or "Starred" is.
    var selectedFeedID: Int64? { selection.feedID }

    /// Called when the person selects a row.
    var onSelect: ((FeedSelection) -> Void)?
    /// Called when the person activates a row: a click, Enter or Space.
    var onActivate: (() -> Void)?
    /// Called when a feed is dragged onto a folder (or onto All Feeds: out of any folder).
    var onMoveFeed: ((_ feedID: Int64, _ folderID: Int64?) -> Void)?
    /// Called when a folder is opened or closed, with the folders closed now.
    var onCollapse: ((Set<Int64>) -> Void)?
    /// Called when a folder is dragged onto another folder (or onto All Feeds: to the top of the list).
    var onMoveFolder: ((_ folderID: Int64, _ parentID: Int64?) -> Void)?
    /// The feeds' own icons; the generic feed icon shows where there is none.
    var icons: FeedIconTextures?
    /// What the list shows, to show it again at another scale, with new icons or folders opened.
    private var shown: (feeds: [StoredFeed], starred: Int) = ([], 0)
    /// How far each level of folders is indented: an expander's width and the row's spacing.
    private static let indentStep: Int32 = 26
    /// What builds each row not built yet, in order: `show` can leave all but the first rows
    /// for later, since laying out a thousand rows' texts kept the window's first frame waiting.
    private var unbuiltRows: [() -> Void] = []
    /// How many of `rowItems` have their row in the list.
    private var builtRows = 0

    init() {
        let list = gtk_list_box_new()!
        listRef = ObjectRef(takingOwnership: list)
        gtk_list_box_set_selection_mode(cast(list), GTK_SELECTION_BROWSE)
        gtk_widget_add_css_class(list, "navigation-sidebar")
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scrolled), list)
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(scrolled, 270, -1)
        widget = scrolled
        Signal.connectObjectOrNil(cast(list), "row-selected") { [weak self] row in self?.rowSelected(row) }
        Signal.connectIgnoringArgument(cast(list), "row-activated") { [weak self] in self?.onActivate?() }
        // Moved to a screen of another scale: the icons are loaded again with its number of pixels.
        Signal.connectIgnoringArgument(cast(list), "notify::scale-factor") { [weak self] in self?.showIconsAgain() }
        addContextMenu()
        addFolderKeys()
        retranslate()
    }

    /// Names the list and its scrolled window for screen readers, in the current language.
    func retranslate() {
        cgtk_accessible_set_label(cast(widget), tr("Feeds"))
        cgtk_accessible_set_label(cast(list), tr("Feeds"))
    }

    /// Shows `feeds` in `folders` (parents before children) and how many entries are starred,
    /// keeping the selection on `selected` when it is still there. With `firstRows`, only that
    /// many rows (and the selected one's) are built now; `buildRemainingRows` builds the others.
    func show(_ feeds: [StoredFeed], folders: [StoredFolder] = [], starred: Int, selecting selected: FeedSelection,
              firstRows: Int = .max) {
        shown = (feeds, starred)
        isRebuilding = true
        defer { isRebuilding = false }
        while let row = gtk_list_box_get_row_at_index(cast(list), 0) { gtk_list_box_remove(cast(list), cast(row)) }
        self.folders = folders
        let total = feeds.reduce(0) { $0 + $1.unreadCount }
        rowItems = [.all, .starred]
        unbuiltRows = [{ [unowned self] in
            let allFeeds = makeRow(title: tr("All Feeds"), icon: "view-list-symbolic", unread: total)
            accept(on: allFeeds, folderID: nil)
            append(allFeeds, name: Self.accessibleName(tr("All Feeds"), unread: total))
        }, { [unowned self] in
            append(makeRow(title: tr("Starred"), icon: "starred-symbolic", starred: starred),
                   name: Self.accessibleName(tr("Starred"), starred: starred))
        }]
        builtRows = 0
        let known = Set(folders.map(\.id))
        let subfolders = Dictionary(grouping: folders, by: \.parentID)
        let feedsIn = Dictionary(grouping: feeds) { feed in feed.folderID.flatMap { known.contains($0) ? $0 : nil } }
        func addContents(of folderID: Int64?, depth: Int32) {
            for feed in feedsIn[folderID] ?? [] {
                rowItems.append(.feed(feed.id))
                unbuiltRows.append { [unowned self] in appendFeed(feed, depth: depth) }
            }
            for folder in subfolders[folderID] ?? [] {
                rowItems.append(.folder(folder.id))
                unbuiltRows.append { [unowned self] in appendFolder(folder, depth: depth) }
                if !collapsed.contains(folder.id) { addContents(of: folder.id, depth: depth + 1) }
            }
        }
        addContents(of: nil, depth: 0)
        let index = rowItems.firstIndex(of: selected) ?? 0
        selection = rowItems[index]
        _ = row(at: min(firstRows, rowItems.count) - 1)
        gtk_list_box_select_row(cast(list), row(at: index))
    }

    /// Builds the rows `show` left for later.
    func buildRemainingRows() {
        _ = row(at: rowItems.count - 1)
    }

    /// The row at `index`, built first (with the rows above it) when it is not yet.
    private func row(at index: Int) -> UnsafeMutablePointer<GtkListBoxRow>? {
        guard index >= 0, index < rowItems.count else { return nil }
        if builtRows <= index {
            let wasRebuilding = isRebuilding
            isRebuilding = true
            for build in unbuiltRows[builtRows...index] { build() }
            isRebuilding = wasRebuilding
            builtRows = index + 1
        }
        return gtk_list_box_get_row_at_index(cast(list), Int32(index))
    }

    private func appendFeed(_ feed: StoredFeed, depth: Int32) {
        let image = feed.lastError == nil ? icons?.image(for: feed, scale: gtk_widget_get_scale_factor(list)) : nil
        let box = makeRow(title: Self.title(of: feed), icon: "application-rss+xml-symbolic", image: image, unread: feed.unreadCount,
                          error: feed.lastError, warnings: feed.lastWarnings)
        gtk_widget_set_margin_start(box, 6 + Self.indentStep * depth)
        makeDraggable(box, .feed(feed.id))
        append(box, name: Self.accessibleName(Self.title(of: feed), unread: feed.unreadCount))
    }

    /// A folder's row: an arrow that opens or closes it, its icon, name and unread count.
    private func appendFolder(_ folder: StoredFolder, depth: Int32) {
        let isExpanded = !collapsed.contains(folder.id)
        let box = makeRow(title: folder.name, icon: "folder-symbolic", unread: folder.unreadCount)
        gtk_widget_set_margin_start(box, 6 + Self.indentStep * depth)
        // GTK draws pan-end pointing left in right-to-left languages.
        let arrow = gtk_image_new_from_icon_name(isExpanded ? "pan-down-symbolic" : "pan-end-symbolic")!
        Widgets.name(arrow, isExpanded ? tr("Collapse") : tr("Expand"))
        let click = gtk_gesture_click_new()!
        Signal.connectClickAt(cast(click), "pressed") { [weak self] _, _ in
            gtk_gesture_set_state(cast(click), GTK_EVENT_SEQUENCE_CLAIMED)
            self?.setExpanded(folder.id, !isExpanded)
        }
        gtk_widget_add_controller(arrow, cast(click))
        gtk_box_prepend(cast(box), arrow)
        accept(on: box, folderID: folder.id)
        makeDraggable(box, .folder(folder.id))
        let row = append(box, name: Self.accessibleName(folder.name, unread: folder.unreadCount))
        cgtk_accessible_set_expanded(cast(row), isExpanded.gboolean)
    }

    /// Opens or closes a folder's row; closing the folder of the selected row selects the folder.
    func setExpanded(_ folderID: Int64, _ expanded: Bool) {
        guard collapsed.contains(folderID) == expanded else { return }
        let hadFocus = gtk_widget_has_focus(list) != 0 || gtk_widget_get_focus_child(list) != nil
        if expanded { collapsed.remove(folderID) } else { collapsed.insert(folderID) }
        onCollapse?(collapsed.intersection(folders.map(\.id)))
        let before = selection
        show(shown.feeds, folders: folders, starred: shown.starred, selecting: before)
        if selection != before { select(.folder(folderID)) }
        if hadFocus, let row = gtk_list_box_get_selected_row(cast(list)) { _ = gtk_widget_grab_focus(cast(row)) }
    }

    /// The folder holding the selected feed or folder, if any.
    private var parentOfSelection: Int64? {
        switch selection {
        case let .feed(id): shown.feeds.first { $0.id == id }?.folderID
        case let .folder(id): folders.first { $0.id == id }?.parentID
        case .all, .starred: nil
        }
    }

    /// Right (left in right-to-left languages) or plus opens the selected folder; the other
    /// arrow or minus closes it, or on a row inside a folder goes to that folder, as in a tree.
    private func addFolderKeys() {
        let keys = gtk_event_controller_key_new()!
        let trampoline: @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, state, data in
            guard let data, state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue) == 0 else { return 0 }
            let box = Unmanaged<KeyHandler>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.sidebar?.folderKeyPressed(UInt32(keyval)) ?? false }.gboolean
        }
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            if let data { Unmanaged<KeyHandler>.fromOpaque(data).release() }
        }
        let box = Unmanaged.passRetained(KeyHandler(self)).toOpaque()
        g_signal_connect_data(cast(keys), "key-pressed", unsafeBitCast(trampoline, to: GCallback.self), box, release, GConnectFlags(0))
        gtk_widget_add_controller(list, keys)
    }

    private func folderKeyPressed(_ keyval: UInt32) -> Bool {
        let rtl = gtk_widget_get_direction(list) == GTK_TEXT_DIR_RTL
        let opening = [rtl ? GDK_KEY_Left : GDK_KEY_Right, GDK_KEY_plus, GDK_KEY_KP_Add].map(UInt32.init).contains(keyval)
        let closing = [rtl ? GDK_KEY_Right : GDK_KEY_Left, GDK_KEY_minus, GDK_KEY_KP_Subtract].map(UInt32.init).contains(keyval)
        if case let .folder(id) = selection, opening || (closing && !collapsed.contains(id)) {
            setExpanded(id, opening)
            return true
        }
        guard closing, let parent = parentOfSelection else { return false }
        select(.folder(parent))
        if let row = gtk_list_box_get_selected_row(cast(list)) { _ = gtk_widget_grab_focus(cast(row)) }
        return true
    }

    /// Lets `box`'s row be dragged onto a folder's row or All Feeds.
    private func makeDraggable(_ box: UnsafeMutablePointer<GtkWidget>, _ item: SidebarDrag) {
        let drag = gtk_drag_source_new()!
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
        g_value_set_string(&value, item.text)
        let content = gdk_content_provider_new_for_value(&value)
        g_value_unset(&value)
        gtk_drag_source_set_content(drag, content)
        g_object_unref(cast(content))
        gtk_drag_source_set_actions(drag, GDK_ACTION_MOVE)
        gtk_widget_add_controller(box, cast(drag))
    }

    /// Lets a feed's or a folder's row be dropped on `row`, moving it into the folder (for nil:
    /// out of any). A folder is refused on itself and on the folders inside it.
    private func accept(on row: UnsafeMutablePointer<GtkWidget>, folderID: Int64?) {
        let target = gtk_drop_target_new(GType(16 << 2), GDK_ACTION_MOVE)!
        let handler: @MainActor (String) -> Bool = { [weak self] text in
            guard let self, let dragged = SidebarDrag(text) else { return false }
            switch dragged {
            case let .feed(feedID):
                self.onMoveFeed?(feedID, folderID)
            case let .folder(id):
                if let folderID, self.folders.subtree(of: id).contains(folderID) { return false }
                self.onMoveFolder?(id, folderID)
            }
            return true
        }
        let trampoline: @convention(c) (gpointer?, UnsafePointer<GValue>?, Double, Double, gpointer?) -> gboolean = { _, value, _, _, data in
            guard let value, let data, let text = g_value_get_string(value) else { return 0 }
            let box = Unmanaged<DropHandler>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler(String(cString: text)) }.gboolean
        }
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            if let data { Unmanaged<DropHandler>.fromOpaque(data).release() }
        }
        let box = Unmanaged.passRetained(DropHandler(handler)).toOpaque()
        g_signal_connect_data(cast(target), "drop", unsafeBitCast(trampoline, to: GCallback.self), box, release, GConnectFlags(0))
        // Only rows of this sidebar are taken: text or a file from another program passes on to
        // the window (which imports an OPML file dropped anywhere on it).
        let fromThisApp: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, drop, _ in
            guard let drop, gdk_drop_get_drag(drop) != nil else { return 0 }
            return gdk_content_formats_contain_gtype(gdk_drop_get_formats(drop), GType(16 << 2))
        }
        g_signal_connect_data(cast(target), "accept", unsafeBitCast(fromThisApp, to: GCallback.self), nil, nil, GConnectFlags(0))
        gtk_widget_add_controller(row, cast(target))
    }

    private final class KeyHandler {
        weak var sidebar: FeedSidebar?
        init(_ sidebar: FeedSidebar) { self.sidebar = sidebar }
    }

    private final class DropHandler {
        let handler: @MainActor (String) -> Bool
        init(_ handler: @escaping @MainActor (String) -> Bool) { self.handler = handler }
    }

    /// Adds a row whose accessible name says what a sighted person reads in it.
    @discardableResult
    private func append(_ box: UnsafeMutablePointer<GtkWidget>, name: String) -> UnsafeMutablePointer<GtkWidget> {
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(cast(row), box)
        cgtk_accessible_set_label(cast(row), name)
        gtk_list_box_append(cast(list), row)
        return row
    }

    /// "GNOME Desktop Notes, 3 unread".
    static func accessibleName(_ title: String, unread: Int) -> String {
        // TRANSLATORS: a feed's name for screen readers; %@ is its title, %d how many of its entries are unread.
        trn("%@, %d unread", "%@, %d unread", unread).replacingOccurrences(of: "%@", with: title)
            .replacingOccurrences(of: "%d", with: "\(unread)")
    }

    /// "Starred, 2 entries".
    static func accessibleName(_ title: String, starred: Int) -> String {
        // TRANSLATORS: the Starred list's name for screen readers; %@ is "Starred", %d how many entries it holds.
        trn("%@, %d entry", "%@, %d entries", starred).replacingOccurrences(of: "%@", with: title)
            .replacingOccurrences(of: "%d", with: "\(starred)")
    }

    /// The tooltip of `feedID`'s row: where a fetch error or the feed's mistakes show.
    func tooltip(forFeed feedID: Int64) -> String? {
        guard let index = rowItems.firstIndex(of: .feed(feedID)), let row = row(at: index),
              let box = gtk_list_box_row_get_child(row), let text = gtk_widget_get_tooltip_text(box) else { return nil }
        return String(cString: text)
    }

    static func title(of feed: StoredFeed) -> String {
        feed.title?.isEmpty == false ? feed.title! : (feed.url.host ?? feed.url.lastPathComponent)
    }

    /// Shows the same feeds again, with their icons as they are now.
    func showIconsAgain() {
        show(shown.feeds, folders: folders, starred: shown.starred, selecting: selection)
    }

    private func makeRow(title: String, icon: String, image: UnsafeMutablePointer<GtkWidget>? = nil, unread: Int, error: String? = nil,
                         warnings: [String] = []) -> UnsafeMutablePointer<GtkWidget> {
        let image = image ?? gtk_image_new_from_icon_name(error == nil ? icon : "dialog-warning-symbolic")!
        let name = Widgets.label(title)
        gtk_label_set_ellipsize(cast(name), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(name, 1)
        let count = Widgets.label(unread > 0 ? "\(unread)" : "", classes: ["unread-count"], xalign: 1)
        let box = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 10, [image, name, count])
        Widgets.setMargins(box, horizontal: 6, vertical: 6)
        if let error {
            // TRANSLATORS: tooltip of a feed whose last refresh failed; %@ is the reason.
            gtk_widget_set_tooltip_text(box, tr("Last refresh failed: %@").replacingOccurrences(of: "%@", with: error))
            gtk_widget_add_css_class(image, "error")
        } else if !warnings.isEmpty {
            // TRANSLATORS: tooltip of a feed that is not well-formed but was read anyway; %@ lists what was wrong.
            gtk_widget_set_tooltip_text(box, tr("Read despite mistakes in the feed: %@")
                .replacingOccurrences(of: "%@", with: "\n" + warnings.joined(separator: "\n")))
        }
        let accessibleUnread = trn("%d unread entry", "%d unread entries", unread)
            .replacingOccurrences(of: "%d", with: "\(unread)")
        cgtk_accessible_set_description(cast(box), accessibleUnread)
        return box
    }

    /// The Starred row: its count is of starred entries, read or not.
    private func makeRow(title: String, icon: String, starred: Int) -> UnsafeMutablePointer<GtkWidget> {
        let name = Widgets.label(title)
        gtk_widget_set_hexpand(name, 1)
        let count = Widgets.label(starred > 0 ? "\(starred)" : "", classes: ["unread-count"], xalign: 1)
        let box = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 10, [gtk_image_new_from_icon_name(icon), name, count])
        Widgets.setMargins(box, horizontal: 6, vertical: 6)
        let accessibleCount = trn("%d starred entry", "%d starred entries", starred)
            .replacingOccurrences(of: "%d", with: "\(starred)")
        cgtk_accessible_set_description(cast(box), accessibleCount)
        return box
    }

    /// The feeds listed, top to bottom.
    var feedIDs: [Int64] { rowItems.compactMap(\.feedID) }

    /// What the rows show, top to bottom.
    var items: [FeedSelection] { rowItems }

    /// Selects `feedID`'s row (nil: All Feeds), as a click would.
    func select(feedID: Int64?) {
        select(feedID.map(FeedSelection.feed) ?? .all)
    }

    /// Selects the row of `item`, as a click would.
    func select(_ item: FeedSelection) {
        guard let index = rowItems.firstIndex(of: item) else { return }
        gtk_list_box_select_row(cast(list), row(at: index))
    }

    /// Selects the row `offset` rows below the selected one (above when negative), within the list.
    func selectAdjacent(_ offset: Int) {
        guard let index = rowItems.firstIndex(of: selection) else { return }
        select(rowItems[min(max(index + offset, 0), rowItems.count - 1)])
    }

    private func rowSelected(_ row: gpointer?) {
        guard !isRebuilding, let row else { return }
        let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
        guard index >= 0, index < rowItems.count else { return }
        selection = rowItems[index]
        onSelect?(selection)
    }

    /// A right click (or long press) on a feed offers to mark it read or remove it.
    private func addContextMenu() {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(cast(click), guint(GDK_BUTTON_SECONDARY))
        Signal.connectClickAt(cast(click), "pressed") { [weak self] x, y in self?.showMenu(x: x, y: y) }
        gtk_widget_add_controller(list, cast(click))
    }

    private func showMenu(x: Double, y: Double) {
        guard let row = gtk_list_box_get_row_at_y(cast(list), Int32(y)) else { return }
        let index = Int(gtk_list_box_row_get_index(row))
        guard index >= 0, index < rowItems.count, let menu = menu(for: rowItems[index]) else { return }
        Widgets.popUpMenu(menu, on: list, x: x, y: y)
    }

    /// The context menu of a feed's or a folder's row; nil for the other rows.
    func menu(for item: FeedSelection) -> OpaquePointer? {
        let menu = g_menu_new()!
        func add(_ label: String, _ action: String, _ target: OpaquePointer, to menu: OpaquePointer) {
            let item = g_menu_item_new(label, nil)!
            g_menu_item_set_action_and_target_value(item, action, target)
            g_menu_append_item(menu, item)
            g_object_unref(cast(item))
        }
        switch item {
        case let .feed(feedID):
            add(tr("Mark All as Read"), "win.mark-feed-read", g_variant_new_int64(gint64(feedID)), to: menu)
            let move = g_menu_new()!
            add(tr("No Folder"), "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: nil), to: move)
            for folder in folders {
                add(pathName(of: folder.id), "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: folder.id), to: move)
            }
            add(tr("New Folder…"), "win.move-to-new-folder", g_variant_new_int64(gint64(feedID)), to: move)
            g_menu_append_submenu(menu, tr("Move to Folder"), cast(move))
            g_object_unref(cast(move))
            add(tr("Remove Feed…"), "win.remove-feed", g_variant_new_int64(gint64(feedID)), to: menu)
        case let .folder(folderID):
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
        case .all, .starred:
            g_object_unref(cast(menu))
            return nil
        }
        return menu
    }

    /// A folder's name after the names of the folders it is in: "Tech › Linux".
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
