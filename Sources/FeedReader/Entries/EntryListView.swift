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
    let header: NormalHeader
    let footer: NormalAutoFooter
    /// One item per entry shown: a row shows the entry at its position in ``order``, so a new
    /// page refills the rows already made instead of replacing every item (and row) of the list.
    private let rows: OpaquePointer
    private let selectionModel: OpaquePointer
    /// The row widget of each list item bound now, so rows can be refilled without rebinding.
    private var boundRows: [UnsafeMutableRawPointer: UnsafeMutablePointer<GtkWidget>] = [:]
    /// The entry selected, kept across reloads that still list it.
    private(set) var selectedID: Int64?
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
    /// The words searched for: while there are any, the list shows the search's results instead.
    private(set) var searchTerms: [String] = []
    private var searchText = ""
    /// Increases with every reload, so a page that arrives for an older selection is dropped.
    private var generation = 0
    /// The first page being read, cancelled when a newer one is asked for (the next search keystroke).
    private var firstPageLoad: Task<Void, Never>?

    /// Called when an entry is opened (Enter or a double click): its page in the browser.
    var onOpen: ((StoredEntry) -> Void)?
    /// Called when the selection changes, with the entry selected or nil.
    var onSelect: ((StoredEntry?) -> Void)?
    /// Called after a click on the list, once the click has selected its entry.
    var onClick: (() -> Void)?
    /// Called when the first page of a new selection, filter or search is shown.
    var onFirstPageShown: (() -> Void)?
    /// Called when a load fails, with a sentence for people and the error for the details.
    var onError: ((String, any Error) -> Void)?

    init(library: FeedLibrary) {
        self.library = library
        // Each model is handed to the one above it, which owns it from then on: `rows` and
        // `selectionModel` stay valid as long as the list view that `listViewRef` holds.
        rows = gtk_string_list_new(nil)
        let factory = gtk_signal_list_item_factory_new()!
        let selection = gtk_single_selection_new(cast(rows))!
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 1)
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
        header = NormalHeader()
        footer = NormalAutoFooter()
        header.link(to: view)
        footer.link(to: view)
        footer.refreshingAction = { [weak self] in self?.loadOlder() }

        Signal.connectObject(cast(factory), "setup") { [weak self] item in self?.setUpRow(item) }
        Signal.connectObject(cast(factory), "bind") { [weak self] item in self?.bind(item) }
        Signal.connectObject(cast(factory), "unbind") { [weak self] item in self?.unbind(item) }
        Signal.connectUInt(cast(listView), "activate") { [weak self] position in self?.activate(position) }
        Signal.connectIgnoringArgument(cast(selection), "notify::selected") { [weak self] in self?.selectionChanged() }
        // Before the row's own click, which selects on release: its selection is there on the next iteration.
        let click = gtk_gesture_click_new()!
        gtk_event_controller_set_propagation_phase(cast(click), GTK_PHASE_CAPTURE)
        Signal.connectClickAt(cast(click), "released") { [weak self] _, _ in
            MainThread.after(0) { [weak self] in self?.onClick?() }
        }
        gtk_widget_add_controller(listView, cast(click))
        retranslate()
    }

    /// Shows the first page of the entries `source` stands for.
    func show(_ source: FeedSelection, feedTitles: [Int64: String]) {
        self.feedTitles = feedTitles
        let changed = source != self.source || order.isEmpty
        self.source = source
        switch source {
        case .all: header.lastUpdatedKey = "all-feeds"
        case .starred: header.lastUpdatedKey = "starred"
        case let .feed(id): header.lastUpdatedKey = "feed-\(id)"
        case let .folder(id): header.lastUpdatedKey = "folder-\(id)"
        case let .account(id): header.lastUpdatedKey = "account-\(id)"
        }
        reload(scrollToTop: changed)
    }

    /// Lists only the unread entries, or all of them again.
    func setFilter(_ filter: EntryFilter) {
        guard filter != self.filter else { return }
        self.filter = filter
        reload(scrollToTop: true)
    }

    /// Lists the entries matching `text` across every feed, best first; empty text ends the search.
    func search(_ text: String) {
        searchText = text
        searchTerms = FeedStore.searchTerms(in: text)
        reload(scrollToTop: true)
    }

    /// The page after `last` (the first page when nil): search results, else the source's entries.
    private func page(after last: StoredEntry?) async throws -> [StoredEntry] {
        if !searchTerms.isEmpty {
            return try await library.store.search(searchText, limit: Self.searchPageSize, offset: last == nil ? 0 : order.count,
                                                  fields: .listing)
        }
        let query = EntryQuery(feedID: source.feedID, folderID: source.folderID, accountID: source.accountID, unreadOnly: filter == .unread,
                               starredOnly: source == .starred,
                               limit: Self.pageSize, olderThan: last?.cursor, fields: .listing)
        return try await library.store.entries(query)
    }

    /// The size of the pages loaded now: search results, or the source's entries.
    private var currentPageSize: Int { searchTerms.isEmpty ? Self.pageSize : Self.searchPageSize }

    /// Updates the feed names rows show, without reloading.
    func updateFeedTitles(_ titles: [Int64: String]) {
        feedTitles = titles
    }

    /// Loads the first page again: after a refresh, new entries appear at the top.
    func reload(scrollToTop: Bool = false, completion: (@MainActor () -> Void)? = nil) {
        generation += 1
        let generation = generation
        // Its results would be dropped anyway: SQLite stops the query instead of finishing it.
        firstPageLoad?.cancel()
        firstPageLoad = Task { @MainActor [weak self] in
            // Also when a newer load took its place: a refresh waits for it to end its header.
            defer { completion?() }
            do {
                guard let page = try await self?.page(after: nil), let self, self.life.isAlive, generation == self.generation else { return }
                self.replace(with: page)
                if scrollToTop { self.scrollToTop() }
                // A footer at its end already stays there: set again, it would animate (every frame
                // of it redrawing the window) on each search keystroke that finds a short page.
                if page.count >= self.currentPageSize {
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

    /// The titles shown, top to bottom.
    var shownTitles: [String] { order.compactMap { entries[$0]?.title } }

    private func loadOlder() {
        guard let last = order.last.flatMap({ entries[$0] }) else {
            footer.endRefreshingWithNoMoreData()
            return
        }
        let generation = generation
        Task { @MainActor [weak self] in
            do {
                guard let page = try await self?.page(after: last), let self, self.life.isAlive, generation == self.generation else { return }
                self.append(page)
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
        let shown = order.count
        entries = Dictionary(page.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        order = page.map(\.id)
        let kept = min(shown, order.count)
        let focusWasInList = gtk_widget_get_root(listView).flatMap { gtk_root_get_focus($0) }
            .map { $0 == listView || gtk_widget_is_ancestor($0, listView) != 0 } ?? false
        isReplacing = true
        // Only the count changes the list's items: the rows kept show their new entries below.
        if shown != order.count { splicePlaceholders(at: kept, removing: shown - kept, adding: order.count - kept) }
        isReplacing = false
        refillBoundRows()
        // A focused row removed is gone from the window, but stays the window's focus until the
        // next layout: keys pressed meanwhile would go nowhere, so the list takes the focus back.
        if focusWasInList && kept < shown { gtk_widget_grab_focus(listView) }
        // The entry being read stays selected when the new page still lists it.
        if let selectedID, let index = order.firstIndex(of: selectedID) {
            isReplacing = true
            gtk_single_selection_set_selected(selectionModel, guint(index))
            isReplacing = false
        } else if selectedID != nil {
            isReplacing = true
            gtk_single_selection_set_selected(selectionModel, guint(GTK_INVALID_LIST_POSITION))
            isReplacing = false
            selectionChanged()
        }
    }

    private func append(_ page: [StoredEntry]) {
        let fresh = page.filter { entries[$0.id] == nil }
        for entry in fresh { entries[entry.id] = entry }
        let shown = order.count
        order += fresh.map(\.id)
        splicePlaceholders(at: shown, removing: 0, adding: fresh.count)
    }

    /// Removes and adds items at `position`: their rows show the entries of ``order`` there.
    private func splicePlaceholders(at position: Int, removing removed: Int, adding added: Int) {
        withCStringArray(Array(repeating: "", count: added)) { gtk_string_list_splice(rows, guint(position), guint(removed), $0) }
    }

    private func scrollToTop() {
        if let adjustment = gtk_scrollable_get_vadjustment(cast(listView)) {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_lower(adjustment))
        }
    }

    private func activate(_ position: UInt32) {
        guard Int(position) < order.count, let entry = entries[order[Int(position)]] else { return }
        // Enter acts on the row with the keyboard's focus, which need not be the one selected (j and k select without moving it).
        if gtk_single_selection_get_selected(selectionModel) != position { gtk_single_selection_set_selected(selectionModel, position) }
        onOpen?(entry)
    }

    private func selectionChanged() {
        guard !isReplacing else { return }
        let position = gtk_single_selection_get_selected(selectionModel)
        let entry = Int(position) < order.count ? entries[order[Int(position)]] : nil
        selectedID = entry?.id
        onSelect?(entry)
    }

    /// The entry selected, as the list knows it now.
    var selectedEntry: StoredEntry? { selectedID.flatMap { entries[$0] } }

    /// Selects the entry at `index` of the list and scrolls it into view.
    func select(index: Int) {
        guard index >= 0, index < order.count else { return }
        gtk_single_selection_set_selected(selectionModel, guint(index))
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

    /// Records a change to one entry (read or starred) and redraws its row if it is visible.
    func update(_ entry: StoredEntry) {
        guard entries[entry.id] != nil else { return }
        entries[entry.id] = entry
        if let row = boundRow(showing: entry.id) { fill(row, with: entry) }
    }

    /// Marks every listed entry read in the rows, after the store did.
    func markAllShownRead() {
        for id in order { entries[id]?.isRead = true }
        refillBoundRows()
    }

    /// Shows the rows' dates and placeholders in the current language, and names the list.
    func retranslate() {
        cgtk_accessible_set_label(cast(listView), tr("Entries"))
        cgtk_accessible_set_label(cast(scrolledWindow), tr("Entries"))
        refillBoundRows()
    }

    /// Shows in every row made the entry now at its position.
    private func refillBoundRows() {
        for (item, row) in boundRows {
            if let entry = entry(at: item) { fill(row, with: entry) }
        }
    }

    /// The entry at a list item's position.
    private func entry(at item: UnsafeMutableRawPointer) -> StoredEntry? {
        let position = Int(gtk_list_item_get_position(cast(item)))
        return position < order.count ? entries[order[position]] : nil
    }

    /// The row showing the entry `id`, if it is bound.
    private func boundRow(showing id: Int64) -> UnsafeMutablePointer<GtkWidget>? {
        boundRows.first { entry(at: $0.key)?.id == id }?.value
    }

    // MARK: - Rows

    private func setUpRow(_ item: gpointer) {
        let title = Widgets.label("", classes: ["entry-title"])
        // Wrapped at the list's width; a word-wrapped natural width as well (natural-wrap-mode
        // WORD) laid every title out once more for each search keystroke.
        gtk_label_set_wrap(cast(title), 1)
        gtk_widget_set_hexpand(title, 1)
        let star = gtk_image_new_from_icon_name("starred-symbolic")!
        gtk_widget_set_valign(star, GTK_ALIGN_START)
        gtk_widget_set_halign(star, GTK_ALIGN_END)
        gtk_widget_add_css_class(star, "entry-star")
        // The star lies over the title's end margin rather than beside it in a box: a horizontal
        // box asks a wrapped label its width for the row's height, which GtkLabel finds by
        // laying the title out some ten times over; a search keystroke whose results changed
        // did that for every row, twice, most of its 60 to 190 ms.
        let heading = gtk_overlay_new()!
        gtk_overlay_set_child(cast(heading), title)
        gtk_overlay_add_overlay(cast(heading), star)
        let meta = Widgets.label("", classes: ["caption", "dim-label"])
        let summary = Widgets.label("", classes: ["entry-summary"])
        gtk_label_set_ellipsize(cast(summary), PANGO_ELLIPSIZE_END)
        gtk_label_set_single_line_mode(cast(summary), 1)
        let box = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 3, [heading, meta, summary])
        Widgets.setMargins(box, horizontal: 14, vertical: 10)
        gtk_widget_add_css_class(box, "entry-row")
        gtk_list_item_set_child(cast(item), box)
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(cast(click), guint(GDK_BUTTON_SECONDARY))
        Signal.connectClickAt(cast(click), "pressed") { [weak self] x, y in self?.showMenu(on: box, x: x, y: y) }
        gtk_widget_add_controller(box, cast(click))
    }

    /// Opens the selected entry's menu, as a right click on it would (Shift+F10 or the Menu key).
    func showMenuForSelection() {
        guard let id = selectedID, let box = boundRow(showing: id) else { return }
        showMenu(on: box, x: Double(gtk_widget_get_width(box)) / 2, y: Double(gtk_widget_get_height(box)) / 2)
    }

    /// A right click on an entry offers to star it, mark it read or unread, or open it.
    private func showMenu(on box: UnsafeMutablePointer<GtkWidget>, x: Double, y: Double) {
        guard let item = boundRows.first(where: { $0.value == box })?.key, let entry = entry(at: item) else { return }
        let id = entry.id
        let menu = g_menu_new()!
        // An entry without a web address (the bundled samples' have none) is not offered to the browser.
        let opens = entry.link.map(Reading.opensInBrowser) ?? false
        let items = [(entry.isStarred ? tr("Unstar") : tr("Star"), "win.toggle-star-entry"),
                     (entry.isRead ? tr("Mark as Unread") : tr("Mark as Read"), "win.toggle-read-entry")]
            + (opens ? [(tr("Open in Browser"), "win.open-entry")] : [])
        for (label, action) in items {
            let item = g_menu_item_new(label, nil)!
            g_menu_item_set_action_and_target_value(item, action, g_variant_new_int64(gint64(id)))
            g_menu_append_item(menu, item)
            g_object_unref(cast(item))
        }
        Widgets.popUpMenu(menu, on: box, x: x, y: y)
    }

    private func bind(_ item: gpointer) {
        guard let box = gtk_list_item_get_child(cast(item)) else { return }
        boundRows[item] = box
        if let entry = entry(at: item) { fill(box, with: entry) }
    }

    /// The space between a title and the star of a starred entry, in pixels.
    private static let starSpacing: Int32 = 6

    /// The star's width: the title's end margin leaves it that much room.
    private static func starWidth(_ star: UnsafeMutablePointer<GtkWidget>) -> Int32 {
        var width: Int32 = 0
        gtk_widget_measure(star, GTK_ORIENTATION_HORIZONTAL, -1, nil, &width, nil, nil)
        return width
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
        return parts.joined(separator: ", ")
    }

    private func unbind(_ item: gpointer) {
        boundRows[item] = nil
    }

    private func fill(_ box: UnsafeMutablePointer<GtkWidget>, with entry: StoredEntry) {
        let heading = gtk_widget_get_first_child(box)!
        let title = gtk_overlay_get_child(cast(heading))!
        let star = gtk_widget_get_next_sibling(title)!
        gtk_widget_set_visible(star, entry.isStarred.gboolean)
        gtk_widget_set_margin_end(title, entry.isStarred ? Self.starWidth(star) + Self.starSpacing : 0)
        let meta = gtk_widget_get_next_sibling(heading)!
        let summary = gtk_widget_get_next_sibling(meta)!
        let titleText = entry.title?.isEmpty == false ? entry.title! : tr("Untitled")
        let summaryText = Self.summaryLine(entry.summary ?? "")
        if searchTerms.isEmpty {
            gtk_label_set_text(cast(title), titleText)
            gtk_label_set_text(cast(summary), summaryText)
        } else {
            gtk_label_set_markup(cast(title), SearchHighlight.markup(titleText, terms: searchTerms))
            gtk_label_set_markup(cast(summary), SearchHighlight.markup(summaryText, terms: searchTerms))
        }
        if entry.isRead {
            gtk_widget_remove_css_class(title, "unread")
        } else {
            gtk_widget_add_css_class(title, "unread")
        }
        gtk_label_set_text(cast(meta), Self.subtitle([feedTitles[entry.feedID], entry.author, EntryDateText.text(for: entry.sortDate)]))
        // The list's row widget is what a screen reader lands on: it gets the whole row in words.
        if let row = gtk_widget_get_parent(box) {
            cgtk_accessible_set_label(cast(row), Self.accessibleName(of: entry, title: titleText, feed: feedTitles[entry.feedID]))
        }
        gtk_widget_set_visible(summary, (entry.summary?.isEmpty == false).gboolean)
    }
}

