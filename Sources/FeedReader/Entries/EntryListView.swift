import AppSignals
import CGtk
import FeedCore
import Foundation
import RefreshCore
import RefreshGtk

/// The entries of the selected feeds, newest first, with pull-to-refresh above and the older
/// entries loading below.
@MainActor
final class EntryListView {
    /// How many entries a page brings.
    static let pageSize = 50
    /// How many search results a page brings: every keystroke builds, measures and draws the
    /// rows of a new first page, so it holds about two screens' worth; scrolling loads more.
    static let searchPageSize = 20

    let widget: UnsafeMutablePointer<GtkWidget>
    let header: CompactHeader
    let footer: NormalAutoFooter
    /// A position per entry shown, whose ``EntryItem`` (made only for the rows GTK shows) shows
    /// the entry at its position in ``order``: a new page refills the items alive (their rows
    /// follow their properties) instead of replacing every item (and row) of the list.
    private let model = EntryListModel()
    /// The positions the list view is given: the first of ``model``'s (a GtkSliceListModel). It
    /// makes, binds and measures a row for every one of a page's 50 entries before it draws them;
    /// a window's start gives it only the rows a screen shows (`init`'s `firstRows`) until it has
    /// drawn them (``listEveryRow()``).
    private let listedRows: OpaquePointer
    /// As many rows as the tallest screen shows (a row is at least 44 pixels tall: its margins,
    /// the list's padding and two lines of text at any readable size), and no more than 32,
    /// which fill a 2,160-pixel screen at 68 a row.
    static var rowsBeforeFirstFrame: guint { WindowFrames.rowsFillingTallestScreen(pitch: 44, atMost: 32) }
    /// A GtkMultiSelection: one entry is read at a time, and Ctrl, Shift and their keys select
    /// several for the menu's and the keys' actions.
    private let selectionModel: OpaquePointer
    /// The entry being read: the one selected, or of several selected the one read before (else
    /// the first); kept across reloads that still list it.
    private(set) var selectedID: Int64?
    /// Whether the listing shown is the one the selection was made in, reloaded (a refresh, a
    /// sync): the entry being read then stays listed though read. A new source, filter or search
    /// lists only what matches it.
    private var keepsSelectedEntry = false
    private var isReplacing = false
    /// Kept alive with this object: page loads may finish after the window closed.
    private let listViewRef: ObjectRef<UnsafeMutablePointer<GtkWidget>>
    var listView: UnsafeMutablePointer<GtkWidget> { listViewRef.pointer }
    /// The list's scrolled window, inside the pull-to-refresh view.
    private let scrolledWindow: UnsafeMutablePointer<GtkWidget>
    /// Whether the list's scrolled window and refresh view still exist: a page read after the
    /// window closed is dropped.
    private let life: WidgetLife
    private(set) var entries: [Int64: StoredEntry] = [:]
    /// The entries shown, top to bottom.
    private(set) var order: [Int64] = []
    private var feedTitles: [Int64: String] = [:]
    private let library: FeedLibrary
    /// The sidebar's choice whose entries are listed.
    private(set) var source = FeedSelection.all
    /// Which of the source's entries are listed.
    private(set) var filter = EntryFilter.all
    /// Whether entries a rule hid are listed too (dimmed, marked) and found by a search.
    var showsHidden = false {
        didSet { if showsHidden != oldValue { reload() } }
    }
    /// The words searched for: while there are any, the list shows the search's results instead.
    private(set) var searchTerms: [String] = []
    private var searchText = ""
    /// Increases with every reload, so a page that arrives for an older selection is dropped.
    private var generation = 0
    /// The first page being read, cancelled when a newer one is asked for (the next search keystroke).
    private var firstPageLoad: Task<Void, Never>?
    /// Counts the listings shown from their top: a new source, filter or search, or new entries above.
    private(set) var listing = 0
    /// Counts the entries chosen to be read here: one chosen while a new listing is read is kept in it.
    private var choices = 0
    /// Counts the entries marked here (read, starred) one by one.
    private var marks = 0
    /// The state each entry was last marked with here, and that mark's number: a page read from
    /// the store before the mark, which arrives after it (an entry selected as the Unread view
    /// appears), shows the entry as marked, not as it was.
    private var marked: [Int64: (mark: Int, isRead: Bool, isStarred: Bool)] = [:]

    /// Called when an entry is opened (Enter or a double click): its page in the browser.
    var onOpen: ((StoredEntry) -> Void)?
    /// Called when the entry read changes, with the entry or nil.
    var onSelect: ((StoredEntry?) -> Void)?
    /// Called after a click on the list, once the click has selected its entry.
    var onClick: (() -> Void)?
    /// Called when the first page of a new selection, filter or search is shown.
    var onFirstPageShown: (() -> Void)?
    /// Called when a load fails, with a sentence for people and the error for the details.
    var onError: ((String, any Error) -> Void)?
    /// A saved search by id, for listing one (LibraryModel's).
    var savedSearch: ((Int64) -> SavedSearch?)?

    /// The list of `library`'s entries, giving its list view only the first `firstRows` until ``listEveryRow()``;
    /// its pull header keeps its times in `pullTimesFile`.
    init(library: FeedLibrary, firstRows: guint = .max, pullTimesFile: String? = nil) {
        self.library = library
        // Each model is handed to the one above it, which owns it from then on: `model` and
        // `selectionModel` stay valid as long as the list view that `listViewRef` holds.
        let factory = gtk_signal_list_item_factory_new()!
        listedRows = gtk_slice_list_model_new(OpaquePointer(model.object), 0, firstRows)
        let selection = gtk_multi_selection_new(cast(listedRows))!
        selectionModel = selection
        let listView = gtk_list_view_new(cast(selection), factory)!
        listViewRef = ObjectRef(takingOwnership: listView)
        gtk_list_view_set_show_separators(cast(listView), 1)
        let scrolled = gtk_scrolled_window_new()!
        scrolledWindow = scrolled
        gtk_scrolled_window_set_child(cast(scrolled), listView)
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_hexpand(scrolled, 1)
        let view = RefreshView(wrapping: cast(scrolled))
        widget = view.widget
        life = WidgetLife(scrolled)
        header = CompactHeader()
        if let pullTimesFile { header.lastUpdatedFile = pullTimesFile }
        footer = NormalAutoFooter()
        header.link(to: view)
        footer.link(to: view)
        // The footer pages through the store, which a refresh from the network in the header
        // does not hold up: a reader scrolling through a long list while a background refresh
        // runs keeps getting older entries (the list follows both through its change notices).
        view.allowsSimultaneousRefresh = true
        footer.refreshingAction = { [weak self] in self?.loadOlder() }
        model.fill = { [weak self] item, position in self?.show(position, in: item) }

        Signal.connectObject(cast(factory), "setup") { [weak self] item in self?.setUpRow(item) }
        Signal.connectObject(cast(factory), "bind") { [weak self] item in self?.bind(item) }
        Signal.connectObject(cast(factory), "unbind") { [weak self] item in self?.unbind(item) }
        Signal.connectUInt(cast(listView), "activate") { [weak self] position in self?.activate(position) }
        Signal.connectUIntPair(cast(selection), "selection-changed") { [weak self] _, _ in self?.selectionChanged() }
        // Before the row's own click, which selects on release: its selection is there on the next iteration.
        let click = gtk_gesture_click_new()!
        gtk_event_controller_set_propagation_phase(cast(click), GTK_PHASE_CAPTURE)
        Signal.connectClickAt(cast(click), "released") { [weak self] _, _ in
            MainThread.after(0) { [weak self] in self?.onClick?() }
        }
        gtk_widget_add_controller(listView, cast(click))
        LanguageTexts.keep(listView, .accessibleLabel) { tr("Entries") }
        LanguageTexts.keep(scrolledWindow, .accessibleLabel) { tr("Entries") }
    }

    /// Shows the first page of the entries `source` stands for; `lastRefresh` is when its feeds
    /// were last fetched, which the pull header shows when it is newer than its last pull.
    func show(_ source: FeedSelection, feedTitles: [Int64: String], lastRefresh: Date? = nil) {
        self.feedTitles = feedTitles
        let changed = source != self.source || order.isEmpty
        self.source = source
        switch source {
        case .all: header.lastUpdatedKey = "all-feeds"
        case .starred: header.lastUpdatedKey = "starred"
        case let .feed(id): header.lastUpdatedKey = "feed-\(id)"
        case let .folder(id): header.lastUpdatedKey = "folder-\(id)"
        case let .account(id): header.lastUpdatedKey = "account-\(id)"
        case let .savedSearch(id): header.lastUpdatedKey = "saved-search-\(id)"
        case let .label(id): header.lastUpdatedKey = "label-\(id)"
        case .labelsHeading: break
        }
        if let lastRefresh, lastRefresh > header.lastUpdated ?? .distantPast { header.lastUpdated = lastRefresh }
        reload(scrollToTop: changed, keepingSelection: !changed)
    }

    /// Lists only the unread entries, or all of them again.
    func setFilter(_ filter: EntryFilter) {
        guard filter != self.filter else { return }
        self.filter = filter
        reload(scrollToTop: true, keepingSelection: false)
    }

    /// The text the list shows the results of, while it shows a search's.
    var searchedText: String? { searchTerms.isEmpty ? nil : searchText }

    /// The ids of every entry the search lists, those not scrolled to yet too.
    func searchResultIDs() async throws -> [Int64] {
        try await library.store.search(searchText, limit: Int(Int32.max), fields: .listing, includingHidden: showsHidden).map(\.id)
    }

    /// Lists the entries matching `text` across every feed, best first; empty text ends the
    /// search. `completion` runs once the first page shows, or at once when `text` is already listed.
    func search(_ text: String, completion: (@MainActor () -> Void)? = nil) {
        // The search entry tells of text set from outside (GNOME Shell's search) once more, later.
        guard text != searchText else {
            completion?()
            return
        }
        searchText = text
        searchTerms = FeedStore.searchTerms(in: text)
        reload(scrollToTop: true, keepingSelection: false, completion: completion)
    }

    /// The page after `last` (the first page when nil), of `size` entries (a page's by default):
    /// search results, else the source's entries.
    private func page(after last: StoredEntry?, size: Int? = nil) async throws -> [StoredEntry] {
        if !searchTerms.isEmpty {
            return try await library.store.search(searchText, limit: size ?? Self.searchPageSize, offset: last == nil ? 0 : order.count,
                                                  fields: .listing, includingHidden: showsHidden)
        }
        if let id = source.savedSearchID {
            guard let saved = savedSearch?(id) else { return [] }
            return try await library.store.entries(saved.entryQuery(unreadOnly: filter == .unread, limit: size ?? Self.pageSize,
                                                                    olderThan: last?.cursor, fields: .listing, keeping: keptID))
        }
        return try await library.store.entries(query(unreadOnly: filter == .unread, limit: size ?? Self.pageSize, olderThan: last?.cursor,
                                                     keeping: keptID))
    }

    /// The entry listed even once read or unstarred: the one being read, in the listing it was selected in.
    private var keptID: Int64? { keepsSelectedEntry ? selectedID : nil }

    /// The query of the source's entries the list shows; `keeping` is listed even once read or
    /// unstarred, so the entry being read stays in its place in the Unread view (or Starred)
    /// until the selection moves.
    private func query(unreadOnly: Bool, limit: Int, olderThan cursor: EntryCursor?, keeping: Int64? = nil) -> EntryQuery {
        EntryQuery(feedID: source.feedID, folderID: source.folderID, accountID: source.accountID, labelID: source.labelID,
                   unreadOnly: unreadOnly, starredOnly: source == .starred, includesHidden: showsHidden,
                   limit: limit, olderThan: cursor, fields: .listing, keeping: keeping)
    }

    /// The unread entries the list would show below those it has loaded, as it would list them.
    func unreadBelowLoaded() async throws -> [Int64] {
        guard let last = order.last.flatMap({ entries[$0] }) else { return [] }
        if !searchTerms.isEmpty {
            return try await library.store.search(searchText, limit: Int(Int32.max), offset: order.count, fields: .listing)
                .filter { !$0.isRead }.map(\.id)
        }
        if let id = source.savedSearchID {
            guard let saved = savedSearch?(id) else { return [] }
            return try await library.store.entries(saved.entryQuery(unreadOnly: true, limit: Int(Int32.max), olderThan: last.cursor,
                                                                    fields: .listing)).map(\.id)
        }
        return try await library.store.entries(query(unreadOnly: true, limit: Int(Int32.max), olderThan: last.cursor)).map(\.id)
    }

    /// The size of the pages loaded now: search results, or the source's entries.
    private var currentPageSize: Int { searchTerms.isEmpty ? Self.pageSize : Self.searchPageSize }

    /// Updates the feed names rows show, without reloading.
    func updateFeedTitles(_ titles: [Int64: String]) {
        guard titles != feedTitles else { return }
        feedTitles = titles
        showEntries(in: order.indices)
    }

    /// Lists again what `change` may have changed in the list, once the first page shows.
    func follow(_ change: LibraryModel.Change) async {
        switch change {
        // New entries bring the list to its top only when it shows its first page: a reader
        // deep in the list stays where they are.
        case let .entries(newAtTop): await reloaded(scrollToTop: newAtTop && isNearTop)
        case .feeds: await reloaded()
        case .folders where source.folderID != nil: await reloaded()
        case .folders, .counts: return
        }
    }

    /// Whether the list is scrolled no further than its first screen.
    private var isNearTop: Bool {
        guard let adjustment = verticalAdjustment else { return true }
        return gtk_adjustment_get_value(adjustment) - gtk_adjustment_get_lower(adjustment) <= gtk_adjustment_get_page_size(adjustment)
    }

    /// Loads the first page again, returning once it shows (or a newer load took its place).
    private func reloaded(scrollToTop: Bool = false) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            reload(scrollToTop: scrollToTop) { done.resume() }
        }
    }

    /// Loads the first page again: after a refresh, new entries appear at the top. Without
    /// `keepingSelection` it is a new listing, of only what matches.
    private func reload(scrollToTop: Bool = false, keepingSelection: Bool = true, completion: (@MainActor () -> Void)? = nil) {
        keepsSelectedEntry = keepingSelection
        generation += 1
        let generation = generation
        // Listed again after a change, the list keeps as many entries as it shows: a reader
        // scrolled through thousands of them stays where they are when a refresh ends.
        let size = scrollToTop || !keepingSelection ? currentPageSize : max(currentPageSize, order.count)
        let (marksBefore, choicesBefore) = (marks, choices)
        // Its results would be dropped anyway: SQLite stops the query instead of finishing it.
        firstPageLoad?.cancel()
        firstPageLoad = Task { @MainActor [weak self] in
            // Also when a newer load took its place: a refresh waits for it to end its header.
            defer { completion?() }
            do {
                guard var page = try await self?.page(after: nil, size: size), let self, self.life.isAlive,
                      generation == self.generation else { return }
                // An entry chosen to be read while the page was read (the Unread view just
                // asked for) is the one being read: listed again with it kept, as if chosen after.
                if self.choices > choicesBefore, let chosen = self.selectedID, !page.contains(where: { $0.id == chosen }) {
                    self.keepsSelectedEntry = true
                    let again = try await self.page(after: nil, size: size)
                    guard self.life.isAlive, generation == self.generation else { return }
                    page = again
                }
                self.replace(with: self.withMarks(after: marksBefore, on: page))
                if scrollToTop {
                    self.scrollToTop()
                    self.listing += 1
                }
                // A footer at its end already stays there: set again, it would animate (every frame
                // of it redrawing the window) on each search keystroke that finds a short page.
                if page.count >= size {
                    self.footer.resetNoMoreData()
                } else if self.footer.state != .noMoreData {
                    self.footer.resetNoMoreData()
                    self.footer.endRefreshingWithNoMoreData()
                }
                self.onFirstPageShown?()
            } catch where Task.isCancelled {
                // A newer load took its place.
            } catch {
                self?.onError?(tr("The stored entries could not be read."), error)
            }
        }
    }

    /// Gives the list view every listed entry, after a start that gave it the first (`init`'s `firstRows`).
    func listEveryRow() {
        gtk_slice_list_model_set_size(cast(listedRows), guint.max)
    }

    /// Returns once the listing asked for last shows its first page, or a newer one took its place.
    func listed() async {
        await firstPageLoad?.value
    }

    /// The titles shown, top to bottom.
    var shownTitles: [String] { order.compactMap { entries[$0]?.title } }

    private func loadOlder() {
        guard let last = order.last.flatMap({ entries[$0] }) else {
            footer.endRefreshingWithNoMoreData()
            return
        }
        let generation = generation
        let marksBefore = marks
        Task { @MainActor [weak self] in
            do {
                guard let page = try await self?.page(after: last), let self, self.life.isAlive else { return }
                // A listing made meanwhile replaced the one this page followed: the footer is
                // free to load after the new one's end.
                guard generation == self.generation else { return self.footer.endRefreshing() }
                self.append(self.withMarks(after: marksBefore, on: page))
                if page.count < self.currentPageSize {
                    self.footer.endRefreshingWithNoMoreData()
                } else {
                    self.footer.endRefreshing()
                }
            } catch {
                self?.footer.endRefreshing()
                self?.onError?(tr("The stored entries could not be read."), error)
            }
        }
    }

    private func replace(with page: [StoredEntry]) {
        let wasSelected = Set(selectedIDs)
        let shown = order.count
        entries = Dictionary(page.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        order = page.map(\.id)
        let kept = min(shown, order.count)
        let focusWasInList = gtk_widget_get_root(listView).flatMap { gtk_root_get_focus($0) }
            .map { $0 == listView || gtk_widget_is_ancestor($0, listView) != 0 } ?? false
        isReplacing = true
        // Only the count changes the list's items: the rows kept show their new entries below.
        if shown != order.count { model.splice(at: kept, removing: shown - kept, adding: order.count - kept) }
        isReplacing = false
        showEntries(in: 0..<kept)
        // A focused row removed is gone from the window, but stays the window's focus until the
        // next layout: keys pressed meanwhile would go nowhere, so the list takes the focus back.
        if focusWasInList && kept < shown { gtk_widget_grab_focus(listView) }
        // The entries selected stay selected while the new page still lists the one being read;
        // the items now show other entries at their places, so the selection is set again.
        let isStillListed = selectedID.map(order.contains) ?? false
        isReplacing = true
        setSelection(isStillListed ? order.indices.filter { wasSelected.contains(order[$0]) } : [])
        isReplacing = false
        if selectedID != nil, !isStillListed { selectionChanged() }
    }

    private func append(_ page: [StoredEntry]) {
        let fresh = page.filter { entries[$0.id] == nil }
        for entry in fresh { entries[entry.id] = entry }
        let shown = order.count
        order += fresh.map(\.id)
        if !fresh.isEmpty { model.splice(at: shown, removing: 0, adding: fresh.count) }
    }

    /// Shows in `item` the entry of ``order`` at `position`.
    private func show(_ position: Int, in item: EntryItem) {
        guard position < order.count, let entry = entries[order[position]] else { return }
        item.show(entry, feed: feedTitles[entry.feedID], terms: searchTerms)
    }

    /// Shows in the items alive at `positions` the entries of ``order`` there.
    private func showEntries(in positions: Range<Int>) {
        for (position, item) in model.liveItems where positions.contains(position) { show(position, in: item) }
    }

    private func scrollToTop() {
        if let adjustment = gtk_scrollable_get_vadjustment(cast(listView)) {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_lower(adjustment))
        }
    }

    private func activate(_ position: UInt32) {
        guard Int(position) < order.count, let entry = entries[order[Int(position)]] else { return }
        // Enter acts on the row with the keyboard's focus, which need not be the one selected (j and k select without moving it).
        if selectedIDs != [entry.id] { gtk_selection_model_select_item(cast(selectionModel), position, 1) }
        onOpen?(entry)
    }

    /// Follows the selection: the entry read changes only when it left the selection or is the
    /// only one selected, so picking more entries with Ctrl or Shift keeps the article shown.
    private func selectionChanged() {
        guard !isReplacing else { return }
        let selected = selectedIDs
        let reading = selectedID.flatMap { selected.count > 1 && selected.contains($0) ? $0 : nil } ?? selected.first
        guard reading != selectedID else { return }
        selectedID = reading
        choices += 1
        onSelect?(reading.flatMap { entries[$0] })
    }

    /// The entries selected, top to bottom: the one read, or several picked with Ctrl or Shift.
    var selectedIDs: [Int64] {
        guard let set = gtk_selection_model_get_selection(cast(selectionModel)) else { return [] }
        defer { gtk_bitset_unref(set) }
        return (0..<gtk_bitset_get_size(set)).compactMap { nth in
            let position = Int(gtk_bitset_get_nth(set, guint(nth)))
            return position < order.count ? order[position] : nil
        }
    }

    /// Selects the entries at `positions` of the list, and no other.
    private func setSelection(_ positions: [Int]) {
        let selected = gtk_bitset_new_empty()!
        let everything = gtk_bitset_new_range(0, guint(order.count))!
        for position in positions { gtk_bitset_add(selected, guint(position)) }
        gtk_selection_model_set_selection(cast(selectionModel), selected, everything)
        gtk_bitset_unref(selected)
        gtk_bitset_unref(everything)
    }

    /// The entry selected, as the list knows it now.
    var selectedEntry: StoredEntry? { selectedID.flatMap { entries[$0] } }

    /// Selects the entry at `index` of the list and scrolls it into view.
    func select(index: Int) {
        guard index >= 0, index < order.count else { return }
        if index >= Int(gtk_slice_list_model_get_size(cast(listedRows))) { listEveryRow() }
        gtk_selection_model_select_item(cast(selectionModel), guint(index), 1)
        gtk_widget_activate_action_variant(listView, "list.scroll-to-item", g_variant_new_uint32(guint32(index)))
    }

    /// Selects the entry `offset` rows below the selected one (above when negative); the first
    /// entry when none is selected.
    func selectAdjacent(_ offset: Int) {
        let current = selectedID.flatMap { order.firstIndex(of: $0) }
        select(index: current.map { min(max($0 + offset, 0), order.count - 1) } ?? 0)
    }

    /// Selects the next unread entry below the selected one; returns false when there is none.
    @discardableResult
    func selectNextUnread() -> Bool {
        let start = selectedID.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        guard start < order.count, let index = order[start...].firstIndex(where: { entries[$0]?.isRead == false }) else { return false }
        select(index: index)
        return true
    }

    /// `page`, read from the store when `marksBefore` entries had been marked, with the marks made
    /// since on its entries; the marks it was read after are in the store and are let go.
    private func withMarks(after marksBefore: Int, on page: [StoredEntry]) -> [StoredEntry] {
        marked = marked.filter { $0.value.mark > marksBefore }
        guard !marked.isEmpty else { return page }
        return page.map { entry in
            guard let mark = marked[entry.id] else { return entry }
            var changed = entry
            (changed.isRead, changed.isStarred) = (mark.isRead, mark.isStarred)
            return changed
        }
    }

    /// Records a change to one entry (read or starred) and redraws its row if it is visible.
    func update(_ entry: StoredEntry) {
        guard entries[entry.id] != nil else { return }
        marks += 1
        marked[entry.id] = (marks, entry.isRead, entry.isStarred)
        entries[entry.id] = entry
        if let position = order.firstIndex(of: entry.id), let item = model.liveItem(at: position) { show(position, in: item) }
    }

    /// Shows the listed entries among `ids` read or unread in their rows, after the store did.
    func showRead(_ isRead: Bool, ids: Set<Int64>) {
        for (position, id) in order.enumerated() where ids.contains(id) {
            guard var entry = entries[id], entry.isRead != isRead else { continue }
            entry.isRead = isRead
            entries[id] = entry
            if let item = model.liveItem(at: position) { show(position, in: item) }
        }
    }

    /// Marks every listed entry read in the rows, after the store did.
    func markAllShownRead() {
        for id in order { entries[id]?.isRead = true }
        showEntries(in: order.indices)
    }

    /// Shows the listed entries again in their items, in the current language (dates,
    /// placeholders, screen-reader names): the rows follow their items.
    func showEntriesAgain() {
        showEntries(in: order.indices)
    }

    /// The widgets of the row showing the entry `id`, found through its item, when the row is bound.
    func rowWidgets(showing id: Int64) -> EntryRowWidgets? {
        order.firstIndex(of: id).flatMap(model.liveItem(at:)).flatMap { ObjectData.get($0.object, EntryItem.rowKey) }
    }

    // MARK: - Rows

    private func setUpRow(_ listItem: gpointer) {
        let widgets = EntryRowWidgets()
        gtk_list_item_set_child(cast(listItem), widgets.box)
        ObjectData.set(widgets, on: listItem, EntryRowWidgets.listItemKey)
        // Found from its content too, as a pointer finds it (`firstPositionBelowTop`).
        ObjectData.set(widgets, on: widgets.box, EntryRowWidgets.listItemKey)
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(cast(click), guint(GDK_BUTTON_SECONDARY))
        Signal.connectClickAt(cast(click), "pressed") { [weak self, weak widgets] x, y in
            if let widgets { self?.showMenu(on: widgets, x: x, y: y) }
        }
        gtk_widget_add_controller(widgets.box, cast(click))
    }

    /// Opens the selected entry's menu, as a right click on it would (Shift+F10 or the Menu key).
    func showMenuForSelection() {
        guard let id = selectedID, let widgets = rowWidgets(showing: id) else { return }
        showMenu(on: widgets, x: Double(gtk_widget_get_width(widgets.box)) / 2, y: Double(gtk_widget_get_height(widgets.box)) / 2)
    }

    /// A right click on an entry offers to star it, mark it read or unread, or open it.
    private func showMenu(on widgets: EntryRowWidgets, x: Double, y: Double) {
        guard let id = widgets.item?.id, let entry = entries[id] else { return }
        let box = widgets.box
        let selected = selectedIDs
        if selected.count > 1, selected.contains(id) { return Widgets.popUpMenu(selectionMenu(for: selected), on: box, x: x, y: y) }
        let menu = g_menu_new()!
        // An entry without a web address (the bundled samples' have none) is not offered to the browser.
        let opens = entry.link.map(Reading.opensInBrowser) ?? false
        let items = [(entry.isStarred ? tr("Unstar") : tr("Star"), "win.toggle-star-entry"),
                     (entry.isRead ? tr("Mark as Unread") : tr("Mark as Read"), "win.toggle-read-entry")]
            + [(tr("Labels…"), "win.label-entry")]
            + markAroundItems(for: id)
            + (opens ? [(tr("Open in Browser"), "win.open-entry")] : [])
            + [(tr("Mute Entries Like This…"), "win.mute-entry")]
        for (label, action) in items {
            let item = g_menu_item_new(label, nil)!
            g_menu_item_set_action_and_target_value(item, action, g_variant_new_int64(gint64(id)))
            g_menu_append_item(menu, item)
            g_object_unref(cast(item))
        }
        Widgets.popUpMenu(menu, on: box, x: x, y: y)
    }

    /// The menu of several entries selected: what each would offer, done to every one of them.
    private func selectionMenu(for ids: [Int64]) -> OpaquePointer {
        let listed = ids.compactMap { entries[$0] }
        let menu = g_menu_new()!
        let items = [listed.contains { !$0.isStarred } ? (tr("Star"), "win.star-selected") : (tr("Unstar"), "win.unstar-selected"),
                     listed.contains { !$0.isRead } ? (tr("Mark as Read"), "win.read-selected") : (tr("Mark as Unread"), "win.unread-selected"),
                     (tr("Labels…"), "win.label-selected-entry")]
        for (label, action) in items { g_menu_append(menu, label, action) }
        return menu
    }

    /// Binds the row's widgets to the item it shows now, and hangs them on the item: the row is
    /// found through the model's item.
    private func bind(_ listItem: gpointer) {
        guard let widgets = ObjectData.get(listItem, EntryRowWidgets.listItemKey, as: EntryRowWidgets.self),
              let object = gtk_list_item_get_item(cast(listItem)) else { return }
        widgets.bind(to: EntryItem(object))
    }

    private func unbind(_ listItem: gpointer) {
        ObjectData.get(listItem, EntryRowWidgets.listItemKey, as: EntryRowWidgets.self)?.unbind()
    }

    /// The most characters of a summary its one ellipsized line can show, at any list width.
    nonisolated static let summaryLineLength = 300

    /// A row's subtitle: feed, author and date, each isolated (U+2068…U+2069), so that a
    /// direction control in a name a server sent (U+202E) cannot reverse the date beside it.
    nonisolated static func subtitle(_ parts: [String?]) -> String {
        parts.compactMap { $0 }.filter { !$0.isEmpty }.map(String.isolated).joined(separator: " · ")
    }

    /// As much of `summary` as its one line can show. The label ellipsizes it anyway, but would
    /// lay out (and a search highlight) a whole article's text for that one line.
    nonisolated static func summaryLine(_ summary: String) -> String {
        guard let end = summary.index(summary.startIndex, offsetBy: summaryLineLength, limitedBy: summary.endIndex),
              end < summary.endIndex else { return summary }
        return String(summary[..<end])
    }

    /// "Title, feed, date, unread, starred".
    static func accessibleName(of entry: StoredEntry, title: String, feed: String?) -> String {
        var parts = [title]
        if let feed, !feed.isEmpty { parts.append(feed) }
        parts.append(EntryDateText.text(for: entry.sortDate))
        if !entry.isRead { parts.append(tr("unread")) }
        if entry.isStarred { parts.append(tr("starred")) }
        if entry.hiddenByRule != nil { parts.append(tr("hidden by a rule")) }
        switch entry.playableMedia {
        // TRANSLATORS: said by screen readers after an entry's title, feed and date, as "unread" and "starred" are.
        case .video: parts.append(tr("with video"))
        // TRANSLATORS: said by screen readers after an entry's title, feed and date, as "unread" and "starred" are.
        case .audio: parts.append(tr("with audio"))
        default: break
        }
        return parts.joined(separator: ", ")
    }
}
