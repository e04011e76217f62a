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

/// The subscriptions: "All Feeds", "Starred", the feeds outside folders, then each folder with
/// its feeds under it, each with its unread count and any fetch error.
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
    /// The folders shown, in order.
    private(set) var folders: [StoredFolder] = []

    /// The feed selected, or nil when "All Feeds" or "Starred" is.
    var selectedFeedID: Int64? { selection.feedID }

    /// Called when the person selects a row.
    var onSelect: ((FeedSelection) -> Void)?
    /// Called when the person activates a row: a click, Enter or Space.
    var onActivate: (() -> Void)?
    /// Called when a feed is dragged onto a folder (or onto All Feeds: out of any folder).
    var onMoveFeed: ((_ feedID: Int64, _ folderID: Int64?) -> Void)?
    /// The drop target of each folder's row, and of All Feeds under nil.
    private(set) var dropTargets: [Int64?: OpaquePointer] = [:]
    /// The feeds' own icons; the generic feed icon shows where there is none.
    var icons: FeedIconTextures?
    /// What the list shows, to show it again at another scale or with new icons.
    private var shown: (feeds: [StoredFeed], starred: Int) = ([], 0)
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
        retranslate()
    }

    /// Names the list and its scrolled window for screen readers, in the current language.
    func retranslate() {
        cgtk_accessible_set_label(cast(widget), tr("Feeds"))
        cgtk_accessible_set_label(cast(list), tr("Feeds"))
    }

    /// Shows `feeds` and how many entries are starred, keeping the selection on `selected`
    /// when it is still there. With `firstRows`, only that many rows (and the selected one's)
    /// are built now; `buildRemainingRows` builds the others.
    func show(_ feeds: [StoredFeed], folders: [StoredFolder] = [], starred: Int, selecting selected: FeedSelection,
              firstRows: Int = .max) {
        shown = (feeds, starred)
        isRebuilding = true
        defer { isRebuilding = false }
        while let row = gtk_list_box_get_row_at_index(cast(list), 0) { gtk_list_box_remove(cast(list), cast(row)) }
        self.folders = folders
        dropTargets = [:]
        let total = feeds.reduce(0) { $0 + $1.unreadCount }
        rowItems = [.all, .starred]
        unbuiltRows = [{ [unowned self] in
            let allFeeds = makeRow(title: tr("All Feeds"), icon: "view-list-symbolic", unread: total)
            acceptFeeds(on: allFeeds, folderID: nil)
            append(allFeeds, name: Self.accessibleName(tr("All Feeds"), unread: total))
        }, { [unowned self] in
            append(makeRow(title: tr("Starred"), icon: "starred-symbolic", starred: starred),
                   name: Self.accessibleName(tr("Starred"), starred: starred))
        }]
        builtRows = 0
        let known = Set(folders.map(\.id))
        for feed in feeds where feed.folderID.map({ !known.contains($0) }) ?? true { addFeed(feed, indented: false) }
        for folder in folders {
            rowItems.append(.folder(folder.id))
            unbuiltRows.append { [unowned self] in
                let row = makeRow(title: folder.name, icon: "folder-symbolic", unread: folder.unreadCount)
                acceptFeeds(on: row, folderID: folder.id)
                append(row, name: Self.accessibleName(folder.name, unread: folder.unreadCount))
            }
            for feed in feeds where feed.folderID == folder.id { addFeed(feed, indented: true) }
        }
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

    private func addFeed(_ feed: StoredFeed, indented: Bool) {
        rowItems.append(.feed(feed.id))
        unbuiltRows.append { [unowned self] in appendFeed(feed, indented: indented) }
    }

    private func appendFeed(_ feed: StoredFeed, indented: Bool) {
        let image = feed.lastError == nil ? icons?.image(for: feed, scale: gtk_widget_get_scale_factor(list)) : nil
        let box = makeRow(title: Self.title(of: feed), icon: "application-rss+xml-symbolic", image: image, unread: feed.unreadCount,
                          error: feed.lastError, warnings: feed.lastWarnings)
        // Feeds in a folder sit under it, a step in.
        if indented { gtk_widget_set_margin_start(box, 24) }
        let drag = gtk_drag_source_new()!
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING: the feed's id
        g_value_set_string(&value, "\(feed.id)")
        let content = gdk_content_provider_new_for_value(&value)
        g_value_unset(&value)
        gtk_drag_source_set_content(drag, content)
        g_object_unref(cast(content))
        gtk_drag_source_set_actions(drag, GDK_ACTION_MOVE)
        gtk_widget_add_controller(box, cast(drag))
        append(box, name: Self.accessibleName(Self.title(of: feed), unread: feed.unreadCount))
    }

    /// Lets a feed's row be dropped on `row`, moving the feed into the folder (out of any for nil).
    private func acceptFeeds(on row: UnsafeMutablePointer<GtkWidget>, folderID: Int64?) {
        let target = gtk_drop_target_new(GType(16 << 2), GDK_ACTION_MOVE)!
        let handler: @MainActor (String) -> Bool = { [weak self] text in
            guard let feedID = Int64(text) else { return false }
            self?.onMoveFeed?(feedID, folderID)
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
        gtk_widget_add_controller(row, cast(target))
        dropTargets[folderID] = target
    }

    private final class DropHandler {
        let handler: @MainActor (String) -> Bool
        init(_ handler: @escaping @MainActor (String) -> Bool) { self.handler = handler }
    }

    /// Adds a row whose accessible name says what a sighted person reads in it.
    private func append(_ box: UnsafeMutablePointer<GtkWidget>, name: String) {
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(cast(row), box)
        cgtk_accessible_set_label(cast(row), name)
        gtk_list_box_append(cast(list), row)
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
            for folder in folders { add(folder.name, "win.move-to-folder", Self.moveTarget(feedID: feedID, folderID: folder.id), to: move) }
            add(tr("New Folder…"), "win.move-to-new-folder", g_variant_new_int64(gint64(feedID)), to: move)
            g_menu_append_submenu(menu, tr("Move to Folder"), cast(move))
            g_object_unref(cast(move))
            add(tr("Remove Feed…"), "win.remove-feed", g_variant_new_int64(gint64(feedID)), to: menu)
        case let .folder(folderID):
            add(tr("Rename Folder…"), "win.rename-folder", g_variant_new_int64(gint64(folderID)), to: menu)
            add(tr("Delete Folder…"), "win.delete-folder", g_variant_new_int64(gint64(folderID)), to: menu)
        case .all, .starred:
            g_object_unref(cast(menu))
            return nil
        }
        return menu
    }

    /// The "(xx)" parameter of win.move-to-folder: the feed, and the folder (0 for none).
    static func moveTarget(feedID: Int64, folderID: Int64?) -> OpaquePointer {
        var children: [OpaquePointer?] = [g_variant_new_int64(gint64(feedID)), g_variant_new_int64(gint64(folderID ?? 0))]
        return g_variant_new_tuple(&children, 2)
    }
}
