import AppSignals
import CGtk
import FeedCore
import RefreshGtk

/// The subscriptions: "All Feeds", "Starred", the local feeds outside folders, the local folders
/// with their feeds and the folders inside them, then a section for each sync account holding its
/// categories as folders and their feeds. Each row has its unread count (a folder's or an
/// account's counts all below it) and any fetch or sync error; folders and accounts open and close.
///
/// A GtkTreeListModel over the model's list of ``SidebarItem``s per level, shown by a list view
/// with a GtkTreeExpander in each row: only the rows on screen are widgets, bound to the
/// properties of the item they show, and a row is found through its item. The model updates the
/// items and splices its lists; the sidebar only keeps the selection and the open rows.
@MainActor
final class FeedSidebar {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// Kept alive with this object: subscription reloads may finish after the window closed.
    private let listViewRef: ObjectRef<UnsafeMutablePointer<GtkWidget>>
    var listView: UnsafeMutablePointer<GtkWidget> { listViewRef.pointer }
    /// Where the rows come from, and where the selection lives.
    let model: LibraryModel
    /// The rows shown: the top level, with the rows of each open folder and account below it.
    private let treeModel: OpaquePointer
    /// The rows the list view is given: the first of ``treeModel``'s (a GtkSliceListModel). It
    /// makes a row widget for up to 200 of them at once, each bound, styled and measured before
    /// a frame is drawn; a window's start lists only the rows a screen shows (`init`'s
    /// `firstRows`, and the selection's) until it has drawn its entries (``listEveryRow()``).
    private let listedRows: OpaquePointer
    /// As many rows as the tallest screen shows (libadwaita's sidebar rows are at least 36 pixels
    /// tall, 2 apart), and no more than 64, which fill a 2,160-pixel screen.
    static var rowsBeforeFirstFrame: guint { WindowFrames.rowsFillingTallestScreen(pitch: 38, atMost: 64) }
    /// The rows listed to the list view at first, or to reach a selection before ``listEveryRow()``.
    private let firstRows: guint
    private let selectionModel: OpaquePointer
    /// What each level holds now.
    var outline: SidebarOutline { model.outline }
    /// While rows are opened and closed as ``collapsed`` and ``collapsedAccounts`` say.
    private var isOpeningAsRemembered = false
    /// Whether the model's rows were shown once: the first time, the selection is scrolled to.
    private var hasShownRows = false
    /// While the selection moves to where the model's change left it: not the person's choice.
    private var isSelectingForModel = false
    /// The row selected here, which the model's selection follows once its entries are listed.
    private(set) var selection = FeedSelection.all
    /// The local folders, each before the folders inside it.
    var folders: [StoredFolder] { model.folders }
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

    /// The sidebar of `model`'s rows, listing only the first `firstRows` to its list view until
    /// ``listEveryRow()``.
    init(model: LibraryModel, firstRows: guint = .max) {
        self.model = model
        self.firstRows = firstRows
        // Each model is handed to the one above it, which owns it from then on: they stay valid
        // as long as the list view that `listViewRef` holds. A folder's or account's rows are
        // the list its item holds.
        treeModel = gtk_tree_list_model_new(cast(g_object_ref(cast(model.sidebarRoot))), 0, 0, { item, _ in
            guard let item else { return nil }
            return ObjectProperty.object(item, "children").map(OpaquePointer.init)
        }, nil, nil)
        listedRows = gtk_slice_list_model_new(cast(treeModel), 0, firstRows)
        let selection = gtk_single_selection_new(cast(listedRows))!
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
        Signal.connectObject(cast(factory), "setup") { [weak self] item in self?.setUpRow(item) }
        Signal.connectObject(cast(factory), "bind") { [weak self] item in self?.bind(item) }
        Signal.connectObject(cast(factory), "unbind") { [weak self] item in self?.unbind(item) }
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
        LanguageTexts.keep(widget, .accessibleLabel) { tr("Feeds") }
        LanguageTexts.keep(listView, .accessibleLabel) { tr("Feeds") }
    }

    /// Follows the model's new rows: the folders and accounts open as the person left them, and
    /// the selection stays on `selected` when it is still there (else on the nearest folder or
    /// account shown around it).
    func modelChanged(selecting selected: FeedSelection) {
        let isFirstShow = !hasShownRows
        hasShownRows = true
        openRowsAsRemembered()
        let shown = ([selected] + outline.ancestors(of: selected)).lazy.compactMap { self.position(of: $0) }.first ?? 0
        listRows(through: shown)
        selection = item(at: shown) ?? .all
        isSelectingForModel = true
        gtk_single_selection_set_selected(selectionModel, shown)
        isSelectingForModel = false
        // A selection remembered far down the list is brought into view once; later reloads
        // leave the list where the person scrolled it.
        if isFirstShow { scrollOnceLaidOut(to: shown) }
    }

    /// Lists every row to the list view, after a start that listed the first (`init`'s `firstRows`).
    func listEveryRow() {
        gtk_slice_list_model_set_size(cast(listedRows), guint.max)
    }

    /// Lists the rows down to `position` to the list view, when it lists fewer.
    private func listRows(through position: guint) {
        guard position >= gtk_slice_list_model_get_size(cast(listedRows)) else { return }
        let (end, overflow) = position.addingReportingOverflow(firstRows)
        gtk_slice_list_model_set_size(cast(listedRows), overflow ? guint.max : end)
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
        return SidebarItem(object).selection
    }

    /// The tree's row of `item`, with a reference of the caller's, or nil when it is not shown (in a
    /// closed folder): found from the item's place in each level's list, top down.
    private func treeRow(of item: FeedSelection) -> OpaquePointer? {
        let path = ([item] + outline.ancestors(of: item)).reversed()
        var row: OpaquePointer?
        var rows = outline.top
        for step in path {
            guard let index = rows.firstIndex(of: step) else { break }
            let next = row.map { gtk_tree_list_row_get_child_row($0, guint(index)) } ?? gtk_tree_list_model_get_child_row(treeModel, guint(index))
            if let row { g_object_unref(cast(row)) }
            guard let next else { return nil }
            row = next
            if step == item { return row }
            rows = outline.children[step] ?? []
        }
        if let row { g_object_unref(cast(row)) }
        return nil
    }

    /// Where `item`'s row is among the rows shown, or nil when it is not shown (in a closed folder).
    func position(of item: FeedSelection) -> guint? {
        guard let row = treeRow(of: item) else { return nil }
        defer { g_object_unref(cast(row)) }
        return gtk_tree_list_row_get_position(row)
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
    /// Only the folders' and accounts' rows are looked at: the rows of 5,000 feeds cost some
    /// milliseconds on the way to the first frame.
    private func openRowsAsRemembered() {
        isOpeningAsRemembered = true
        defer { isOpeningAsRemembered = false }
        var waiting = outline.top.filter(outline.isExpandable)
        while !waiting.isEmpty {
            let item = waiting.removeFirst()
            guard let row = treeRow(of: item) else { continue }
            // An empty folder stays closed: an open arrow over nothing says it holds rows.
            let open = isRemembered(open: item) && outline.children[item]?.isEmpty == false
            if (gtk_tree_list_row_get_expanded(row) != 0) != open { gtk_tree_list_row_set_expanded(row, open.gboolean) }
            g_object_unref(cast(row))
            if open { waiting = (outline.children[item] ?? []).filter(outline.isExpandable) + waiting }
        }
    }

    // MARK: - Opening and closing

    /// Opens or closes a folder's row; closing the folder of the selected row selects the folder.
    func setExpanded(_ folderID: Int64, _ expanded: Bool) {
        setExpanded(.folder(folderID), expanded)
    }

    /// Opens or closes a folder's or an account's row; closing it around the selected row selects it.
    func setExpanded(_ item: FeedSelection, _ expanded: Bool) {
        guard outline.isExpandable(item), let row = treeRow(of: item) else {
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
        guard !model.isUpdatingSidebar, !isOpeningAsRemembered, let item = Self.item(of: row) else { return }
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
            onCollapse?(collapsed.intersection(model.folders.map(\.id) + model.accounts.flatMap(\.folders).map(\.id)))
        case let .account(id):
            guard collapsedAccounts.contains(id) == open else { return }
            if open { collapsedAccounts.remove(id) } else { collapsedAccounts.insert(id) }
            onCollapseAccounts?(collapsedAccounts.intersection(model.accounts.map(\.account.id)))
        default:
            return
        }
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
        listRows(through: position)
        gtk_single_selection_set_selected(selectionModel, position)
        scroll(to: position)
    }

    /// Selects the row `offset` rows below the selected one (above when negative), within the
    /// list; a heading is passed over.
    func selectAdjacent(_ offset: Int) {
        guard let position = position(of: selection), offset != 0 else { return }
        let last = Int(g_list_model_get_n_items(cast(treeModel))) - 1
        var next = min(max(Int(position) + offset, 0), last)
        while item(at: guint(next)) == .labelsHeading, next + offset.signum() >= 0, next + offset.signum() <= last { next += offset.signum() }
        if let item = item(at: guint(next)), item != .labelsHeading { select(item) }
    }

    private func selectionChanged() {
        guard !model.isUpdatingSidebar, !isSelectingForModel else { return }
        let position = gtk_single_selection_get_selected(selectionModel)
        guard let item = item(at: position) else {
            // The selected row went into a closed folder: the folder shown around it is selected.
            if let shown = outline.ancestors(of: selection).first(where: { self.position(of: $0) != nil }) { select(shown) }
            return
        }
        guard item != selection else { return }
        // A heading heads its rows; GTK selects it only when told to (its row is not selectable).
        guard item != .labelsHeading else { return select(selection) }
        selection = item
        onSelect?(selection)
    }

    /// Enter on a row acts on the row with the keyboard's focus, selected first.
    private func activate(_ position: UInt32) {
        guard let item = item(at: position), item != .labelsHeading else { return }
        if gtk_single_selection_get_selected(selectionModel) != position { gtk_single_selection_set_selected(selectionModel, position) }
        onActivate?()
    }

    /// The title of a row, as the list pane's header shows it when the row is selected.
    func title(of item: FeedSelection) -> String { model.title(of: item) }
}
