import AppSignals
import CGtk
import FeedCore
import RefreshGtk

/// The subscriptions: "All Feeds", "Starred", the local feeds outside folders, the local folders
/// with their feeds and the folders inside them, then a section for each sync account holding its
/// categories as folders and their feeds. Each row has its unread count (a folder's or an
/// account's counts all below it) and any fetch or sync error; folders and accounts open and close.
///
/// A GtkTreeListModel over one list of rows per level, shown by a list view with a
/// GtkTreeExpander in each row: only the rows on screen are widgets, and a row is found through
/// the model's items. ``SidebarOutline`` says what each level holds; a reload splices only the
/// rows that changed into each level's list, so the selection and the scroll position stay.
@MainActor
final class FeedSidebar {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// Kept alive with this object: subscription reloads may finish after the window closed.
    private let listViewRef: ObjectRef<UnsafeMutablePointer<GtkWidget>>
    var listView: UnsafeMutablePointer<GtkWidget> { listViewRef.pointer }
    /// The top level's rows, as GtkStringObjects holding each row's ``FeedSelection/key``.
    private let root: OpaquePointer
    /// The rows shown: the top level, with the rows of each open folder and account below it.
    private let treeModel: OpaquePointer
    private let selectionModel: OpaquePointer
    /// What each level holds now.
    private(set) var outline = SidebarOutline()
    /// The list of rows inside each folder and account, made when it is first opened and kept
    /// (one reference of ours), so a reload updates it whether open or closed.
    private var childLists: [FeedSelection: (list: OpaquePointer, rows: [FeedSelection])] = [:]
    /// The widgets of each list item, bound to a row or not.
    var boundRows: [UnsafeMutableRawPointer: SidebarRowWidgets] = [:]
    private(set) var feedsByID: [Int64: StoredFeed] = [:]
    private(set) var foldersByID: [Int64: StoredFolder] = [:]
    private(set) var accountsByID: [Int64: SidebarAccount] = [:]
    private(set) var starredCount = 0
    /// While the model changes: the selection moving with it is not the person's choice, and the
    /// rows opened to match ``collapsed`` are not either.
    private var isRebuilding = false
    /// While rows are opened and closed as ``collapsed`` and ``collapsedAccounts`` say.
    private var isOpeningAsRemembered = false
    private(set) var selection = FeedSelection.all
    /// The local folders, each before the folders inside it.
    private(set) var folders: [StoredFolder] = []
    /// The folders whose contents are hidden.
    var collapsed: Set<Int64> = []
    /// The accounts whose sections are closed.
    var collapsedAccounts: Set<Int64> = []

    /// The feed selected, or nil when "All Feeds", "Starred", a folder or an account is.
    var selectedFeedID: Int64? { selection.feedID }

    /// Called when the person selects a row.
    var onSelect: ((FeedSelection) -> Void)?
    /// Called when the person activates a row: a click or Enter.
    var onActivate: (() -> Void)?
    /// Called when a feed is dragged onto a folder (or onto All Feeds: out of any folder).
    var onMoveFeed: ((_ feedID: Int64, _ folderID: Int64?) -> Void)?
    /// Called when a folder is opened or closed, with the folders closed now.
    var onCollapse: ((Set<Int64>) -> Void)?
    /// Called when an account's section is opened or closed, with the accounts closed now.
    var onCollapseAccounts: ((Set<Int64>) -> Void)?
    /// Called when a folder is dragged onto another folder (or onto All Feeds: to the top of the list).
    var onMoveFolder: ((_ folderID: Int64, _ parentID: Int64?) -> Void)?
    /// The feeds' own icons; the generic feed icon shows where there is none.
    var icons: FeedIconTextures?

    init() {
        // Each model is handed to the one above it, which owns it from then on: they stay valid
        // as long as the list view that `listViewRef` holds.
        root = gtk_string_list_new(nil)
        let opener = Unmanaged.passRetained(WeakSidebar(nil))
        treeModel = gtk_tree_list_model_new(cast(root), 0, 0, { item, data in
            guard let item, let data else { return nil }
            let key = String(cString: gtk_string_object_get_string(OpaquePointer(item)))
            let sidebar = Unmanaged<WeakSidebar>.fromOpaque(data).takeUnretainedValue()
            // As an address: a pointer may not leave the main actor's closure.
            let list = onMainActor { UInt(bitPattern: sidebar.sidebar?.childList(of: key)) }
            return OpaquePointer(bitPattern: list)
        }, opener.toOpaque(), { data in
            if let data { Unmanaged<WeakSidebar>.fromOpaque(data).release() }
        })
        let selection = gtk_single_selection_new(cast(treeModel))!
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 0)
        selectionModel = selection
        let factory = gtk_signal_list_item_factory_new()!
        let listView = gtk_list_view_new(cast(selection), factory)!
        listViewRef = ObjectRef(takingOwnership: listView)
        gtk_widget_add_css_class(listView, "navigation-sidebar")
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scrolled), listView)
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(scrolled, 270, -1)
        widget = scrolled
        opener.takeUnretainedValue().sidebar = self
        Signal.connectObject(cast(factory), "setup") { [weak self] item in self?.setUpRow(item) }
        Signal.connectObject(cast(factory), "bind") { [weak self] item in self?.bind(item) }
        Signal.connectObject(cast(factory), "unbind") { [weak self] item in self?.unbind(item) }
        Signal.connectObject(cast(factory), "teardown") { [weak self] item in self?.boundRows[item] = nil }
        Signal.connectIgnoringArgument(cast(selection), "notify::selected") { [weak self] in self?.selectionChanged() }
        // Enter or a double click on a row.
        Signal.connectUInt(cast(listView), "activate") { [weak self] position in self?.activate(position) }
        // A click activates as well, once its release has selected the row (on the next iteration).
        let click = gtk_gesture_click_new()!
        gtk_event_controller_set_propagation_phase(cast(click), GTK_PHASE_CAPTURE)
        Signal.connectClickAt(cast(click), "released") { [weak self] _, _ in
            MainThread.after(0) { [weak self] in self?.onActivate?() }
        }
        gtk_widget_add_controller(listView, cast(click))
        // Moved to a screen of another scale: the icons are loaded again with its number of pixels.
        Signal.connectIgnoringArgument(cast(listView), "notify::scale-factor") { [weak self] in self?.showIconsAgain() }
        addFolderKeys()
        retranslate()
    }

    /// Our references to the rows' lists go with the sidebar; the tree list model keeps its own.
    isolated deinit {
        for child in childLists.values { g_object_unref(cast(child.list)) }
    }

    /// What the tree list model's C callback reaches the sidebar through, once it exists.
    private final class WeakSidebar {
        weak var sidebar: FeedSidebar?
        init(_ sidebar: FeedSidebar?) { self.sidebar = sidebar }
    }

    /// Names the list and its scrolled window for screen readers, in the current language, and
    /// shows the rows' texts in it.
    func retranslate() {
        cgtk_accessible_set_label(cast(widget), tr("Feeds"))
        cgtk_accessible_set_label(cast(listView), tr("Feeds"))
        refillBoundRows()
    }

    /// Shows the local `feeds` in `folders` (parents before children), the sync `accounts` and
    /// how many entries are starred, keeping the selection on `selected` when it is still there
    /// (else on the nearest folder or account shown around it). Only the rows that differ from
    /// the ones shown are replaced; the rows on screen show the new counts and names.
    func show(_ feeds: [StoredFeed], folders: [StoredFolder] = [], accounts: [SidebarAccount], starred: Int,
              selecting selected: FeedSelection) {
        self.folders = folders
        starredCount = starred
        let allFeeds = feeds + accounts.flatMap(\.feeds)
        feedsByID = Dictionary(allFeeds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        foldersByID = Dictionary((folders + accounts.flatMap(\.folders)).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        accountsByID = Dictionary(accounts.map { ($0.account.id, $0) }, uniquingKeysWith: { first, _ in first })
        let isFirstShow = outline.top.isEmpty
        let new = SidebarOutline(feeds: feeds.map { ($0.id, $0.folderID) }, folders: folders.map { ($0.id, $0.parentID) },
                                 accounts: accounts.map { account in
                                     SidebarOutline.Account(id: account.account.id, feeds: account.feeds.map { ($0.id, $0.folderID) },
                                                            folders: account.folders.map { ($0.id, $0.parentID) })
                                 })
        isRebuilding = true
        defer { isRebuilding = false }
        // The new outline first: rows bound while the lists change ask it what they hold (a row
        // the model is told holds nothing stays so).
        let oldTop = outline.top
        outline = new
        Self.splice(root, from: oldTop, to: new.top)
        for (item, child) in childLists {
            if let rows = new.children[item] {
                Self.splice(child.list, from: child.rows, to: rows)
                childLists[item]?.rows = rows
            } else {
                childLists[item] = nil
                g_object_unref(cast(child.list))
            }
        }
        openRowsAsRemembered()
        let shown = ([selected] + outline.ancestors(of: selected)).lazy.compactMap { self.position(of: $0) }.first ?? 0
        selection = item(at: shown) ?? .all
        gtk_single_selection_set_selected(selectionModel, shown)
        // A selection remembered far down the list is brought into view once; later reloads
        // leave the list where the person scrolled it.
        if isFirstShow { scrollOnceLaidOut(to: shown) }
        refillBoundRows()
    }

    /// Replaces the run of `list`'s rows that differs between `old` and `new`.
    private static func splice(_ list: OpaquePointer, from old: [FeedSelection], to new: [FeedSelection]) {
        guard let splice = SidebarOutline.splice(from: old, to: new) else { return }
        let added = new[splice.position..<splice.position + splice.added].map(\.key)
        withCStringArray(added) { gtk_string_list_splice(cast(list), guint(splice.position), guint(splice.removed), $0) }
    }

    /// The list of rows inside the row `key` names, for the tree list model (a new reference), or
    /// nil for a row that holds none.
    private func childList(of key: String) -> OpaquePointer? {
        guard let item = FeedSelection(key: key), let rows = outline.children[item] else { return nil }
        if let child = childLists[item] { return OpaquePointer(g_object_ref(cast(child.list))) }
        let list = gtk_string_list_new(nil)!
        withCStringArray(rows.map(\.key)) { gtk_string_list_splice(list, 0, 0, $0) }
        childLists[item] = (list, rows)
        return OpaquePointer(g_object_ref(cast(list)))
    }

    // MARK: - Rows through the model

    /// The row at `position` of the rows shown.
    func item(at position: guint) -> FeedSelection? {
        guard let row = gtk_tree_list_model_get_row(treeModel, position) else { return nil }
        defer { g_object_unref(cast(row)) }
        return Self.item(of: row)
    }

    /// The row a GtkTreeListRow stands for.
    static func item(of row: OpaquePointer) -> FeedSelection? {
        guard let object = gtk_tree_list_row_get_item(row) else { return nil }
        defer { g_object_unref(object) }
        return FeedSelection(key: String(cString: gtk_string_object_get_string(OpaquePointer(object))))
    }

    /// Where `item`'s row is among the rows shown, or nil when it is not shown (in a closed folder).
    func position(of item: FeedSelection) -> guint? {
        let count = g_list_model_get_n_items(cast(treeModel))
        return (0..<count).first { self.item(at: $0) == item }
    }

    /// What the rows show, top to bottom.
    var items: [FeedSelection] {
        (0..<g_list_model_get_n_items(cast(treeModel))).compactMap { item(at: $0) }
    }

    /// The feeds listed, top to bottom.
    var feedIDs: [Int64] { items.compactMap(\.feedID) }

    /// Whether `item`'s row is open, as the person left it.
    private func isRemembered(open item: FeedSelection) -> Bool {
        switch item {
        case let .folder(id): !collapsed.contains(id)
        case let .account(id): !collapsedAccounts.contains(id)
        default: false
        }
    }

    /// Opens and closes the folders and accounts shown as ``collapsed`` and ``collapsedAccounts``
    /// say, top to bottom: a folder opened shows its rows next, which are then looked at in turn.
    private func openRowsAsRemembered() {
        isOpeningAsRemembered = true
        defer { isOpeningAsRemembered = false }
        var position: guint = 0
        while position < g_list_model_get_n_items(cast(treeModel)) {
            if let row = gtk_tree_list_model_get_row(treeModel, position) {
                if let item = Self.item(of: row), outline.isExpandable(item) {
                    let open = isRemembered(open: item)
                    if (gtk_tree_list_row_get_expanded(row) != 0) != open { gtk_tree_list_row_set_expanded(row, open.gboolean) }
                }
                g_object_unref(cast(row))
            }
            position += 1
        }
    }

    // MARK: - Opening and closing

    /// Opens or closes a folder's row; closing the folder of the selected row selects the folder.
    func setExpanded(_ folderID: Int64, _ expanded: Bool) {
        setExpanded(.folder(folderID), expanded)
    }

    /// Opens or closes a folder's or an account's row; closing it around the selected row selects it.
    func setExpanded(_ item: FeedSelection, _ expanded: Bool) {
        guard outline.isExpandable(item), let position = position(of: item),
              let row = gtk_tree_list_model_get_row(treeModel, position) else {
            remember(item, open: expanded)
            return
        }
        defer { g_object_unref(cast(row)) }
        let hadFocus = gtk_widget_get_focus_child(listView) != nil
        gtk_tree_list_row_set_expanded(row, expanded.gboolean)
        if hadFocus { focusSelectedRow() }
    }

    /// A row opened or closed, by its expander, a key or `setExpanded`:
    /// remembered; the folders it shows open as they were left, and the selection moves up to
    /// it when it was inside.
    func rowOpenedOrClosed(_ row: OpaquePointer) {
        guard !isRebuilding, !isOpeningAsRemembered, let item = Self.item(of: row) else { return }
        let open = gtk_tree_list_row_get_expanded(row) != 0
        remember(item, open: open)
        if open { openRowsAsRemembered() }
        if !open, outline.ancestors(of: selection).contains(item) { select(item) }
    }

    private func remember(_ item: FeedSelection, open: Bool) {
        switch item {
        case let .folder(id):
            guard collapsed.contains(id) == open else { return }
            if open { collapsed.remove(id) } else { collapsed.insert(id) }
            onCollapse?(collapsed.intersection(foldersByID.keys))
        case let .account(id):
            guard collapsedAccounts.contains(id) == open else { return }
            if open { collapsedAccounts.remove(id) } else { collapsedAccounts.insert(id) }
            onCollapseAccounts?(collapsedAccounts.intersection(accountsByID.keys))
        default:
            return
        }
        refillBoundRows()
    }

    /// Right (left in right-to-left languages) or plus opens the selected folder or account; the
    /// other arrow or minus closes it, or on a row inside one goes to that row, as in a tree.
    /// In the capture phase: the list view's own Left and Right would move the focus first.
    private func addFolderKeys() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connectKeyPressed(cast(keys), "key-pressed") { [weak self] keyval, _, state in
            guard state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue) == 0 else { return false }
            return self?.folderKeyPressed(keyval) ?? false
        }
        gtk_widget_add_controller(listView, keys)
    }

    private func folderKeyPressed(_ keyval: UInt32) -> Bool {
        let rtl = gtk_widget_get_direction(listView) == GTK_TEXT_DIR_RTL
        let opening = [rtl ? GDK_KEY_Left : GDK_KEY_Right, GDK_KEY_plus, GDK_KEY_KP_Add].map(UInt32.init).contains(keyval)
        let closing = [rtl ? GDK_KEY_Right : GDK_KEY_Left, GDK_KEY_minus, GDK_KEY_KP_Subtract].map(UInt32.init).contains(keyval)
        if outline.isExpandable(selection), opening || (closing && isRemembered(open: selection)) {
            setExpanded(selection, opening)
            return true
        }
        guard closing, let parent = outline.ancestors(of: selection).first else { return opening || closing }
        select(parent)
        focusSelectedRow()
        return true
    }

    /// Moves the keyboard's focus to the selected row, scrolled into view.
    private func focusSelectedRow() {
        guard let position = position(of: selection) else { return }
        scroll(to: position)
        if let row = rowWidget(showing: selection) { _ = gtk_widget_grab_focus(row) }
    }

    // MARK: - Scrolling

    /// The row to scroll to once the list has a height: before, GTK cannot tell where a row is.
    private var pendingScroll: guint?

    private func scrollOnceLaidOut(to position: guint) {
        guard let adjustment = gtk_scrollable_get_vadjustment(cast(listView)), gtk_adjustment_get_page_size(adjustment) == 0 else {
            return scroll(to: position)
        }
        if pendingScroll == nil {
            // Emitted while the list is being laid out, where moving its anchor would be lost: it
            // moves on the next turn of the main loop.
            Signal.connect(cast(adjustment), "changed") { [weak self] in
                guard let self, let position = self.pendingScroll, gtk_adjustment_get_page_size(adjustment) > 0 else { return }
                self.pendingScroll = nil
                MainThread.after(0) { [weak self] in self?.scroll(to: position) }
            }
        }
        pendingScroll = position
    }

    private func scroll(to position: guint) {
        _ = gtk_widget_activate_action_variant(listView, "list.scroll-to-item", g_variant_new_uint32(position))
    }

    // MARK: - Selecting

    /// Selects `feedID`'s row (nil: All Feeds), as a click would.
    func select(feedID: Int64?) {
        select(feedID.map(FeedSelection.feed) ?? .all)
    }

    /// Selects the row of `item`, as a click would, and scrolls it into view.
    func select(_ item: FeedSelection) {
        guard let position = position(of: item) else { return }
        gtk_single_selection_set_selected(selectionModel, position)
        scroll(to: position)
    }

    /// Selects the row `offset` rows below the selected one (above when negative), within the list.
    func selectAdjacent(_ offset: Int) {
        guard let position = position(of: selection) else { return }
        let last = Int(g_list_model_get_n_items(cast(treeModel))) - 1
        if let item = item(at: guint(min(max(Int(position) + offset, 0), last))) { select(item) }
    }

    private func selectionChanged() {
        guard !isRebuilding else { return }
        let position = gtk_single_selection_get_selected(selectionModel)
        guard let item = item(at: position) else {
            // The selected row went into a closed folder: the folder shown around it is selected.
            if let shown = outline.ancestors(of: selection).first(where: { self.position(of: $0) != nil }) { select(shown) }
            return
        }
        guard item != selection else { return }
        selection = item
        onSelect?(selection)
    }

    /// Enter on a row acts on the row with the keyboard's focus, selected first.
    private func activate(_ position: UInt32) {
        guard item(at: position) != nil else { return }
        if gtk_single_selection_get_selected(selectionModel) != position { gtk_single_selection_set_selected(selectionModel, position) }
        onActivate?()
    }

    // MARK: - What rows stand for

    static func title(of feed: StoredFeed) -> String {
        feed.title?.isEmpty == false ? feed.title! : (feed.url.host ?? feed.url.lastPathComponent)
    }

    /// The title of a row, as the list pane's header shows it when the row is selected.
    func title(of item: FeedSelection) -> String {
        switch item {
        case .all: tr("All Feeds")
        case .starred: tr("Starred")
        case let .folder(id): foldersByID[id]?.name ?? ""
        case let .feed(id): feedsByID[id].map(Self.title) ?? ""
        case let .account(id): accountsByID[id]?.name.server ?? ""
        }
    }

    /// The feeds of every account shown, for the titles of their entries.
    var accountFeeds: [StoredFeed] { accountsByID.values.flatMap(\.feeds) }
}
