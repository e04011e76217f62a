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
///
/// A list view: only the rows on screen are widgets, made once and filled with whatever row
/// they show now (``SidebarOutline`` says which rows there are); a reload or a folder opened or
/// closed splices the rows that changed into the model, and refills the rows shown.
@MainActor
final class FeedSidebar {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// Kept alive with this object: subscription reloads may finish after the window closed.
    private let listViewRef: ObjectRef<UnsafeMutablePointer<GtkWidget>>
    private var listView: UnsafeMutablePointer<GtkWidget> { listViewRef.pointer }
    /// One item per row: a row widget shows `rows[its position]`.
    private let model: OpaquePointer
    private let selectionModel: OpaquePointer
    /// What each row shows, top to bottom.
    private var rows: [SidebarRow] = []
    /// The row widget (the list item's child) of each list item bound now.
    private var boundRows: [UnsafeMutableRawPointer: UnsafeMutablePointer<GtkWidget>] = [:]
    private var feedsByID: [Int64: StoredFeed] = [:]
    private var foldersByID: [Int64: StoredFolder] = [:]
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
    /// Called when the person activates a row: a click or Enter.
    var onActivate: (() -> Void)?
    /// Called when a feed is dragged onto a folder (or onto All Feeds: out of any folder).
    var onMoveFeed: ((_ feedID: Int64, _ folderID: Int64?) -> Void)?
    /// Called when a folder is opened or closed, with the folders closed now.
    var onCollapse: ((Set<Int64>) -> Void)?
    /// Called when a folder is dragged onto another folder (or onto All Feeds: to the top of the list).
    var onMoveFolder: ((_ folderID: Int64, _ parentID: Int64?) -> Void)?
    /// The feeds' own icons; the generic feed icon shows where there is none.
    var icons: FeedIconTextures?
    /// What the list shows, to show it again with folders opened or closed.
    private var shown: (feeds: [StoredFeed], starred: Int) = ([], 0)
    /// How far each level of folders is indented: an expander's width and the row's spacing.
    private static let indentStep: Int32 = 26

    init() {
        // Each model is handed to the one above it, which owns it from then on: `model` and
        // `selectionModel` stay valid as long as the list view that `listViewRef` holds.
        model = gtk_string_list_new(nil)
        let selection = gtk_single_selection_new(cast(model))!
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
        Signal.connectObject(cast(factory), "unbind") { [weak self] item in self?.boundRows[item] = nil }
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

    /// Names the list and its scrolled window for screen readers, in the current language, and
    /// shows the rows' texts in it.
    func retranslate() {
        cgtk_accessible_set_label(cast(widget), tr("Feeds"))
        cgtk_accessible_set_label(cast(listView), tr("Feeds"))
        refillBoundRows()
    }

    /// Shows `feeds` in `folders` (parents before children) and how many entries are starred,
    /// keeping the selection on `selected` when it is still there. Only the rows that differ
    /// from the ones shown are replaced; the rows on screen show the new counts and names.
    func show(_ feeds: [StoredFeed], folders: [StoredFolder] = [], starred: Int, selecting selected: FeedSelection) {
        shown = (feeds, starred)
        self.folders = folders
        feedsByID = Dictionary(feeds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        foldersByID = Dictionary(folders.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let isFirstShow = rows.isEmpty
        let newRows = SidebarOutline.rows(feeds: feeds.map { ($0.id, $0.folderID) }, folders: folders.map { ($0.id, $0.parentID) },
                                          collapsed: collapsed)
        isRebuilding = true
        defer { isRebuilding = false }
        if let splice = SidebarOutline.splice(from: rows, to: newRows) {
            rows = newRows
            withCStringArray(Array(repeating: "", count: splice.added)) {
                gtk_string_list_splice(cast(model), guint(splice.position), guint(splice.removed), $0)
            }
        }
        let index = rows.firstIndex { $0.item == selected } ?? 0
        selection = rows[index].item
        gtk_single_selection_set_selected(selectionModel, guint(index))
        // A selection remembered far down the list is brought into view once; later reloads
        // leave the list where the person scrolled it.
        if isFirstShow { scrollOnceLaidOut(to: index) }
        refillBoundRows()
    }

    /// Opens or closes a folder's row; closing the folder of the selected row selects the folder.
    func setExpanded(_ folderID: Int64, _ expanded: Bool) {
        guard collapsed.contains(folderID) == expanded else { return }
        let hadFocus = gtk_widget_get_focus_child(listView) != nil
        if expanded { collapsed.remove(folderID) } else { collapsed.insert(folderID) }
        onCollapse?(collapsed.intersection(folders.map(\.id)))
        let before = selection
        show(shown.feeds, folders: folders, starred: shown.starred, selecting: before)
        if selection != before { select(.folder(folderID)) }
        if hadFocus { focusSelectedRow() }
    }

    /// The folder holding the selected feed or folder, if any.
    private var parentOfSelection: Int64? {
        switch selection {
        case let .feed(id): feedsByID[id]?.folderID
        case let .folder(id): foldersByID[id]?.parentID
        case .all, .starred: nil
        }
    }

    /// Right (left in right-to-left languages) or plus opens the selected folder; the other
    /// arrow or minus closes it, or on a row inside a folder goes to that folder, as in a tree.
    /// In the capture phase: the list view's own Left and Right would move the focus first.
    private func addFolderKeys() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let trampoline: @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, state, data in
            guard let data, state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue) == 0 else { return 0 }
            let box = Unmanaged<RowHandler>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.sidebar?.folderKeyPressed(UInt32(keyval)) ?? false }.gboolean
        }
        connect(keys, "key-pressed", trampoline, RowHandler(self, row: nil))
        gtk_widget_add_controller(listView, keys)
    }

    private func folderKeyPressed(_ keyval: UInt32) -> Bool {
        let rtl = gtk_widget_get_direction(listView) == GTK_TEXT_DIR_RTL
        let opening = [rtl ? GDK_KEY_Left : GDK_KEY_Right, GDK_KEY_plus, GDK_KEY_KP_Add].map(UInt32.init).contains(keyval)
        let closing = [rtl ? GDK_KEY_Right : GDK_KEY_Left, GDK_KEY_minus, GDK_KEY_KP_Subtract].map(UInt32.init).contains(keyval)
        if case let .folder(id) = selection, opening || (closing && !collapsed.contains(id)) {
            setExpanded(id, opening)
            return true
        }
        guard closing, let parent = parentOfSelection else { return opening || closing }
        select(.folder(parent))
        focusSelectedRow()
        return true
    }

    /// Moves the keyboard's focus to the selected row, scrolled into view.
    private func focusSelectedRow() {
        guard let index = rows.firstIndex(where: { $0.item == selection }) else { return }
        scroll(to: index)
        if let row = rowWidget(showing: selection) { _ = gtk_widget_grab_focus(row) }
    }

    /// The row to scroll to once the list has a height: before, GTK cannot tell where a row is.
    private var pendingScroll: Int?

    private func scrollOnceLaidOut(to index: Int) {
        guard let adjustment = gtk_scrollable_get_vadjustment(cast(listView)), gtk_adjustment_get_page_size(adjustment) == 0 else {
            return scroll(to: index)
        }
        if pendingScroll == nil {
            // Emitted while the list is being laid out, where moving its anchor would be lost: it
            // moves on the next turn of the main loop.
            Signal.connect(cast(adjustment), "changed") { [weak self] in
                guard let self, let index = self.pendingScroll, gtk_adjustment_get_page_size(adjustment) > 0 else { return }
                self.pendingScroll = nil
                MainThread.after(0) { [weak self] in self?.scroll(to: index) }
            }
        }
        pendingScroll = index
    }

    private func scroll(to index: Int) {
        _ = gtk_widget_activate_action_variant(listView, "list.scroll-to-item", g_variant_new_uint32(guint32(index)))
    }

    // MARK: - Rows

    /// Makes a row's widgets once: the arrow of a folder, the icon, the name and the count; the
    /// drag, the drop, the arrow's click and the context menu act on the row it shows then.
    private func setUpRow(_ item: gpointer) {
        let arrow = gtk_image_new_from_icon_name("pan-down-symbolic")!
        let image = gtk_image_new()!
        gtk_image_set_pixel_size(cast(image), FeedIconTextures.size)
        let name = Widgets.label("")
        gtk_label_set_ellipsize(cast(name), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(name, 1)
        let count = Widgets.label("", classes: ["unread-count"], xalign: 1)
        let box = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 10, [arrow, image, name, count])
        Widgets.setMargins(box, horizontal: 6, vertical: 6)
        gtk_list_item_set_child(cast(item), box)

        let arrowClick = gtk_gesture_click_new()!
        Signal.connectClickAt(cast(arrowClick), "pressed") { [weak self] _, _ in
            gtk_gesture_set_state(cast(arrowClick), GTK_EVENT_SEQUENCE_CLAIMED)
            guard let self, case let .folder(id) = self.row(shownBy: box)?.item else { return }
            self.setExpanded(id, self.collapsed.contains(id))
        }
        gtk_widget_add_controller(arrow, cast(arrowClick))

        let menuClick = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(cast(menuClick), guint(GDK_BUTTON_SECONDARY))
        Signal.connectClickAt(cast(menuClick), "pressed") { [weak self] x, y in self?.showMenu(on: box, x: x, y: y) }
        gtk_widget_add_controller(box, cast(menuClick))

        makeDraggable(box)
        acceptDrops(on: box)
    }

    private func bind(_ item: gpointer) {
        guard let box = gtk_list_item_get_child(cast(item)) else { return }
        boundRows[item] = box
        fill(box, position: Int(gtk_list_item_get_position(cast(item))))
    }

    /// Shows in every row widget the row now at its position.
    private func refillBoundRows() {
        for (item, box) in boundRows { fill(box, position: Int(gtk_list_item_get_position(cast(item)))) }
    }

    /// The row a bound list item shows now.
    private func row(of listItem: UnsafeMutableRawPointer) -> SidebarRow? {
        let position = Int(gtk_list_item_get_position(cast(listItem)))
        return position < rows.count ? rows[position] : nil
    }

    /// The row a row widget shows now.
    private func row(shownBy box: UnsafeMutablePointer<GtkWidget>) -> SidebarRow? {
        boundRows.first { $0.value == box }.flatMap { row(of: $0.key) }
    }

    /// The list's row widget showing `item`, when it is on screen (or about to be).
    func rowWidget(showing item: FeedSelection) -> UnsafeMutablePointer<GtkWidget>? {
        boundRows.first { row(of: $0.key)?.item == item }.flatMap { gtk_widget_get_parent($0.value) }
    }

    private func fill(_ box: UnsafeMutablePointer<GtkWidget>, position: Int) {
        guard position < rows.count else { return }
        let row = rows[position]
        let arrow = gtk_widget_get_first_child(box)!
        let image = gtk_widget_get_next_sibling(arrow)!
        let name = gtk_widget_get_next_sibling(image)!
        let count = gtk_widget_get_next_sibling(name)!
        let content = RowContent(row.item, feeds: feedsByID, folders: foldersByID, starred: shown.starred)
        gtk_widget_set_margin_start(box, 6 + Self.indentStep * Int32(row.depth))
        gtk_label_set_text(cast(name), content.title)
        gtk_label_set_text(cast(count), content.count > 0 ? "\(content.count)" : "")
        if let feed = content.feed, feed.lastError == nil,
           let texture = icons?.texture(for: feed, scale: gtk_widget_get_scale_factor(listView)) {
            gtk_image_set_from_paintable(cast(image), texture)
        } else {
            gtk_image_set_from_icon_name(cast(image), content.feed?.lastError == nil ? content.icon : "dialog-warning-symbolic")
        }
        if content.feed?.lastError != nil {
            gtk_widget_add_css_class(image, "error")
        } else {
            gtk_widget_remove_css_class(image, "error")
        }
        gtk_widget_set_tooltip_text(box, content.feed.flatMap(Self.tooltip))
        cgtk_accessible_set_description(cast(box), content.countDescription)
        let listRow = gtk_widget_get_parent(box)
        if let listRow { cgtk_accessible_set_label(cast(listRow), content.accessibleName) }
        if case let .folder(id) = row.item {
            let isExpanded = !collapsed.contains(id)
            // GTK draws pan-end pointing left in right-to-left languages.
            gtk_image_set_from_icon_name(cast(arrow), isExpanded ? "pan-down-symbolic" : "pan-end-symbolic")
            Widgets.name(arrow, isExpanded ? tr("Collapse") : tr("Expand"))
            gtk_widget_set_visible(arrow, 1)
            if let listRow { cgtk_accessible_set_expanded(cast(listRow), isExpanded.gboolean) }
        } else {
            gtk_widget_set_visible(arrow, 0)
            if let listRow { gtk_accessible_reset_state(cast(listRow), GTK_ACCESSIBLE_STATE_EXPANDED) }
        }
    }

    /// What a row shows, in the current language.
    private struct RowContent {
        var title = ""
        var icon = "application-rss+xml-symbolic"
        var count = 0
        var countDescription = ""
        var accessibleName = ""
        var feed: StoredFeed?

        @MainActor
        init(_ item: FeedSelection, feeds: [Int64: StoredFeed], folders: [Int64: StoredFolder], starred: Int) {
            switch item {
            case .all:
                (title, icon, count) = (tr("All Feeds"), "view-list-symbolic", feeds.values.reduce(0) { $0 + $1.unreadCount })
            case .starred:
                (title, icon, count) = (tr("Starred"), "starred-symbolic", starred)
                countDescription = trn("%d starred entry", "%d starred entries", starred).replacingOccurrences(of: "%d", with: "\(starred)")
                accessibleName = FeedSidebar.accessibleName(title, starred: starred)
                return
            case let .folder(id):
                let folder = folders[id]
                (title, icon, count) = (folder?.name ?? "", "folder-symbolic", folder?.unreadCount ?? 0)
            case let .feed(id):
                feed = feeds[id]
                (title, count) = (feed.map(FeedSidebar.title) ?? "", feed?.unreadCount ?? 0)
            }
            countDescription = trn("%d unread entry", "%d unread entries", count).replacingOccurrences(of: "%d", with: "\(count)")
            accessibleName = FeedSidebar.accessibleName(title, unread: count)
        }
    }

    /// A feed's tooltip: where a fetch error or the feed's mistakes show; nil when it has neither.
    private static func tooltip(_ feed: StoredFeed) -> String? {
        if let error = feed.lastError {
            // TRANSLATORS: tooltip of a feed whose last refresh failed; %@ is the reason.
            return tr("Last refresh failed: %@").filling(error.sentence)
        }
        guard !feed.lastWarnings.isEmpty else { return nil }
        // TRANSLATORS: tooltip of a feed that is not well-formed but was read anyway; %@ lists what was wrong.
        return tr("Read despite mistakes in the feed: %@").filling(lines: feed.lastWarnings)
    }

    // MARK: - Drag and drop

    /// Lets a feed's or a folder's row be dragged onto a folder's row or All Feeds. The content
    /// is made when the drag starts, from the row the widget shows then.
    private func makeDraggable(_ box: UnsafeMutablePointer<GtkWidget>) {
        let drag = gtk_drag_source_new()!
        gtk_drag_source_set_actions(drag, GDK_ACTION_MOVE)
        let prepare: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> gpointer? = { _, _, _, data in
            guard let data else { return nil }
            let handler = Unmanaged<RowHandler>.fromOpaque(data).takeUnretainedValue()
            // As an address: a pointer may not leave the main actor's closure.
            let content = MainActor.assumeIsolated { UInt(bitPattern: handler.sidebar?.dragContent(of: handler.row!)) }
            return UnsafeMutableRawPointer(bitPattern: content)
        }
        connect(drag, "prepare", prepare, RowHandler(self, row: box))
        gtk_widget_add_controller(box, cast(drag))
    }

    /// "feed:ID" or "folder:ID" for the row `box` shows; nil (no drag) for All Feeds and Starred.
    private func dragContent(of box: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GdkContentProvider>? {
        let dragged: SidebarDrag? = switch row(shownBy: box)?.item {
        case let .feed(id): .feed(id)
        case let .folder(id): .folder(id)
        default: nil
        }
        guard let dragged else { return nil }
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
        g_value_set_string(&value, dragged.text)
        defer { g_value_unset(&value) }
        return gdk_content_provider_new_for_value(&value)
    }

    /// Lets a feed's or a folder's row be dropped on a folder's row, moving it into the folder,
    /// or on All Feeds, moving it out of any. A folder is refused on itself and on the folders
    /// inside it; the other rows take nothing.
    private func acceptDrops(on box: UnsafeMutablePointer<GtkWidget>) {
        let target = gtk_drop_target_new(GType(16 << 2), GDK_ACTION_MOVE)!
        let drop: @convention(c) (gpointer?, UnsafePointer<GValue>?, Double, Double, gpointer?) -> gboolean = { _, value, _, _, data in
            guard let value, let data, let text = g_value_get_string(value) else { return 0 }
            let handler = Unmanaged<RowHandler>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { handler.sidebar?.drop(String(cString: text), on: handler.row!) ?? false }.gboolean
        }
        connect(target, "drop", drop, RowHandler(self, row: box))
        // Only rows of this sidebar are taken, and only on All Feeds and folders: text or a file
        // from another program passes on to the window (which imports an OPML file dropped anywhere on it).
        let accept: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, drop, data in
            guard let drop, let data, gdk_drop_get_drag(drop) != nil,
                  gdk_content_formats_contain_gtype(gdk_drop_get_formats(drop), GType(16 << 2)) != 0 else { return 0 }
            let handler = Unmanaged<RowHandler>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { handler.sidebar?.folderTakingDrops(on: handler.row!) != nil }.gboolean
        }
        connect(target, "accept", accept, RowHandler(self, row: box))
        gtk_widget_add_controller(box, cast(target))
    }

    /// For a row that takes drops: the folder it stands for (nil inside: All Feeds, the top).
    private func folderTakingDrops(on box: UnsafeMutablePointer<GtkWidget>) -> Int64?? {
        switch row(shownBy: box)?.item {
        case .all: .some(nil)
        case let .folder(id): .some(id)
        default: nil
        }
    }

    private func drop(_ text: String, on box: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let dragged = SidebarDrag(text), case let .some(folderID) = folderTakingDrops(on: box) else { return false }
        switch dragged {
        case let .feed(feedID):
            onMoveFeed?(feedID, folderID)
        case let .folder(id):
            if let folderID, folders.subtree(of: id).contains(folderID) { return false }
            onMoveFolder?(id, folderID)
        }
        return true
    }

    /// What a C callback of the list or of a row widget reaches the sidebar through.
    private final class RowHandler {
        weak var sidebar: FeedSidebar?
        let row: UnsafeMutablePointer<GtkWidget>?
        init(_ sidebar: FeedSidebar, row: UnsafeMutablePointer<GtkWidget>?) {
            self.sidebar = sidebar
            self.row = row
        }
    }

    /// Connects a C `callback` to `signal`, passing it `handler`, released with the connection.
    private func connect<Callback>(_ instance: OpaquePointer, _ signal: String, _ callback: Callback, _ handler: RowHandler) {
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            if let data { Unmanaged<RowHandler>.fromOpaque(data).release() }
        }
        let data = Unmanaged.passRetained(handler).toOpaque()
        g_signal_connect_data(cast(instance), signal, unsafeBitCast(callback, to: GCallback.self), data, release, GConnectFlags(0))
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

    /// The tooltip of `feedID`'s row, when the row is on screen: where a fetch error or the feed's mistakes show.
    func tooltip(forFeed feedID: Int64) -> String? {
        guard let row = rowWidget(showing: .feed(feedID)), let box = gtk_widget_get_first_child(row),
              let text = gtk_widget_get_tooltip_text(box) else { return nil }
        return String(cString: text)
    }

    static func title(of feed: StoredFeed) -> String {
        feed.title?.isEmpty == false ? feed.title! : (feed.url.host ?? feed.url.lastPathComponent)
    }

    /// Shows the rows on screen again, with the feeds' icons as they are now.
    func showIconsAgain() {
        refillBoundRows()
    }

    /// The feeds listed, top to bottom.
    var feedIDs: [Int64] { rows.compactMap(\.item.feedID) }

    /// What the rows show, top to bottom.
    var items: [FeedSelection] { rows.map(\.item) }

    /// Selects `feedID`'s row (nil: All Feeds), as a click would.
    func select(feedID: Int64?) {
        select(feedID.map(FeedSelection.feed) ?? .all)
    }

    /// Selects the row of `item`, as a click would, and scrolls it into view.
    func select(_ item: FeedSelection) {
        guard let index = rows.firstIndex(where: { $0.item == item }) else { return }
        gtk_single_selection_set_selected(selectionModel, guint(index))
        scroll(to: index)
    }

    /// Selects the row `offset` rows below the selected one (above when negative), within the list.
    func selectAdjacent(_ offset: Int) {
        guard let index = rows.firstIndex(where: { $0.item == selection }) else { return }
        select(rows[min(max(index + offset, 0), rows.count - 1)].item)
    }

    private func selectionChanged() {
        guard !isRebuilding else { return }
        let position = Int(gtk_single_selection_get_selected(selectionModel))
        guard position < rows.count, rows[position].item != selection else { return }
        selection = rows[position].item
        onSelect?(selection)
    }

    /// Enter on a row acts on the row with the keyboard's focus, selected first.
    private func activate(_ position: UInt32) {
        guard Int(position) < rows.count else { return }
        if gtk_single_selection_get_selected(selectionModel) != position { gtk_single_selection_set_selected(selectionModel, position) }
        onActivate?()
    }

    /// A right click (or long press) on a feed or folder offers to mark it read, move or remove it.
    private func showMenu(on box: UnsafeMutablePointer<GtkWidget>, x: Double, y: Double) {
        guard let item = row(shownBy: box)?.item, let menu = menu(for: item) else { return }
        Widgets.popUpMenu(menu, on: box, x: x, y: y)
    }

    /// Opens the selected row's menu, as a right click on it would (Shift+F10 or the Menu key).
    func showMenuForSelection() {
        guard let row = rowWidget(showing: selection), let box = gtk_widget_get_first_child(row) else { return }
        showMenu(on: box, x: Double(gtk_widget_get_width(box)) / 2, y: Double(gtk_widget_get_height(box)) / 2)
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
            add(tr("Rename Feed…"), "win.rename-feed", g_variant_new_int64(gint64(feedID)), to: menu)
            add(tr("Edit Address…"), "win.edit-feed-address", g_variant_new_int64(gint64(feedID)), to: menu)
            if let feed = feedsByID[feedID] { FullArticleSetting.appendItem(to: menu, for: feed, window: gtk_widget_get_root(widget)) }
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
