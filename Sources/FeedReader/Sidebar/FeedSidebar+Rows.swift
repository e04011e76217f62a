import CGtk
import FeedCore
import RefreshGtk

/// The widgets of one row of the sidebar, made once and filled with whatever row the list item
/// shows now: the expander (with its arrow), the icon, the name (and an account's user below
/// it), a sync error's icon and the unread count.
@MainActor
final class SidebarRowWidgets {
    let expander: UnsafeMutablePointer<GtkWidget>
    let box: UnsafeMutablePointer<GtkWidget>
    let icon: UnsafeMutablePointer<GtkWidget>
    let name: UnsafeMutablePointer<GtkWidget>
    let subtitle: UnsafeMutablePointer<GtkWidget>
    let problem: UnsafeMutablePointer<GtkWidget>
    let count: UnsafeMutablePointer<GtkWidget>
    /// The GtkTreeListRow shown, while the list item is bound.
    var row: OpaquePointer?
    /// The connection to the row's notify::expanded, while bound.
    var expandedHandler: Signal.HandlerID = 0

    init() {
        icon = gtk_image_new()!
        gtk_image_set_pixel_size(cast(icon), FeedIconTextures.size)
        name = Widgets.label("")
        gtk_label_set_ellipsize(cast(name), PANGO_ELLIPSIZE_END)
        subtitle = Widgets.label("", classes: ["dim-label", "caption"])
        gtk_label_set_ellipsize(cast(subtitle), PANGO_ELLIPSIZE_END)
        let titles = Widgets.box(GTK_ORIENTATION_VERTICAL, [name, subtitle])
        gtk_widget_set_hexpand(titles, 1)
        gtk_widget_set_valign(titles, GTK_ALIGN_CENTER)
        problem = gtk_image_new_from_icon_name("dialog-warning-symbolic")!
        gtk_widget_add_css_class(problem, "error")
        count = Widgets.label("", classes: ["unread-count"], xalign: 1)
        box = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 10, [icon, titles, problem, count])
        Widgets.setMargins(box, horizontal: 6, vertical: 6)
        gtk_widget_set_margin_start(box, 0)
        expander = gtk_tree_expander_new()!
        gtk_tree_expander_set_child(cast(expander), box)
    }

    /// The row this shows now.
    var item: FeedSelection? { row.flatMap(FeedSidebar.item(of:)) }
}

extension FeedSidebar {
    /// Makes a row's widgets once; the drag, the drop and the context menu act on the row it
    /// shows then.
    func setUpRow(_ listItem: gpointer) {
        let widgets = SidebarRowWidgets()
        gtk_list_item_set_child(cast(listItem), widgets.expander)
        boundRows[listItem] = widgets

        let menuClick = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(cast(menuClick), guint(GDK_BUTTON_SECONDARY))
        Signal.connectClickAt(cast(menuClick), "pressed") { [weak self] x, y in self?.showMenu(on: widgets, x: x, y: y) }
        gtk_widget_add_controller(widgets.box, cast(menuClick))

        makeDraggable(widgets)
        acceptDrops(on: widgets)
    }

    func bind(_ listItem: gpointer) {
        guard let widgets = boundRows[listItem], let row = gtk_list_item_get_item(cast(listItem)) else { return }
        let listRow = OpaquePointer(row)
        widgets.row = listRow
        gtk_tree_expander_set_list_row(cast(widgets.expander), listRow)
        widgets.expandedHandler = Signal.connectIgnoringArgument(cast(listRow), "notify::expanded") { [weak self] in
            self?.rowOpenedOrClosed(listRow)
        }
        fill(widgets)
    }

    func unbind(_ listItem: gpointer) {
        guard let widgets = boundRows[listItem], let row = widgets.row else { return }
        g_signal_handler_disconnect(cast(row), widgets.expandedHandler)
        gtk_tree_expander_set_list_row(cast(widgets.expander), nil)
        widgets.row = nil
    }

    /// Shows in every row widget the row it stands for now.
    func refillBoundRows() {
        for widgets in boundRows.values where widgets.row != nil { fill(widgets) }
    }

    /// Shows the rows on screen again, with the feeds' icons as they are now.
    func showIconsAgain() {
        refillBoundRows()
    }

    /// The list's row widget showing `item`, when it is on screen (or about to be).
    func rowWidget(showing item: FeedSelection) -> UnsafeMutablePointer<GtkWidget>? {
        boundRows.values.first { $0.item == item }.flatMap { gtk_widget_get_parent($0.expander) }
    }

    /// The tooltip of `feedID`'s row, when the row is on screen: where a fetch error or the feed's mistakes show.
    func tooltip(forFeed feedID: Int64) -> String? {
        tooltip(of: .feed(feedID))
    }

    /// The tooltip of `item`'s row, when the row is on screen: a fetch or sync error, or a feed's mistakes.
    func tooltip(of item: FeedSelection) -> String? {
        guard let widgets = boundRows.values.first(where: { $0.item == item }),
              let text = gtk_widget_get_tooltip_text(widgets.box) else { return nil }
        return String(cString: text)
    }

    private func fill(_ widgets: SidebarRowWidgets) {
        guard let item = widgets.item else { return }
        let content = RowContent(item, sidebar: self)
        gtk_label_set_text(cast(widgets.name), content.title)
        gtk_label_set_text(cast(widgets.subtitle), content.subtitle ?? "")
        gtk_widget_set_visible(widgets.subtitle, (content.subtitle != nil).gboolean)
        if item.accountID != nil {
            gtk_widget_add_css_class(widgets.name, "heading")
        } else {
            gtk_widget_remove_css_class(widgets.name, "heading")
        }
        gtk_label_set_text(cast(widgets.count), content.count > 0 ? "\(content.count)" : "")
        if let feed = content.feed, feed.lastError == nil,
           let texture = icons?.texture(for: feed, scale: gtk_widget_get_scale_factor(listView)) {
            gtk_image_set_from_paintable(cast(widgets.icon), texture)
        } else {
            gtk_image_set_from_icon_name(cast(widgets.icon), content.feed?.lastError == nil ? content.icon : "dialog-warning-symbolic")
        }
        if content.feed?.lastError != nil {
            gtk_widget_add_css_class(widgets.icon, "error")
        } else {
            gtk_widget_remove_css_class(widgets.icon, "error")
        }
        if let syncError = content.syncError { Widgets.name(widgets.problem, syncError) }
        gtk_widget_set_visible(widgets.problem, (content.syncError != nil).gboolean)
        gtk_widget_set_tooltip_text(widgets.box, content.tooltip)
        cgtk_accessible_set_description(cast(widgets.box), content.description)
        // The expander takes the keyboard's focus inside the row: it is named as the row is.
        cgtk_accessible_set_label(cast(widgets.expander), content.accessibleName)
        guard let listRow = gtk_widget_get_parent(widgets.expander) else { return }
        cgtk_accessible_set_label(cast(listRow), content.accessibleName)
        if outline.isExpandable(item), let row = widgets.row {
            cgtk_accessible_set_expanded(cast(listRow), gtk_tree_list_row_get_expanded(row))
        } else {
            gtk_accessible_reset_state(cast(listRow), GTK_ACCESSIBLE_STATE_EXPANDED)
        }
    }

    /// What a row shows, in the current language.
    private struct RowContent {
        var title = ""
        var subtitle: String?
        var icon = "application-rss+xml-symbolic"
        var count = 0
        var description = ""
        var accessibleName = ""
        var tooltip: String?
        var feed: StoredFeed?
        /// Why the account's last sync failed.
        var syncError: String?

        @MainActor
        init(_ item: FeedSelection, sidebar: FeedSidebar) {
            switch item {
            case .all:
                (title, icon, count) = (tr("All Feeds"), "view-list-symbolic", sidebar.feedsByID.values.reduce(0) { $0 + $1.unreadCount })
            case .starred:
                (title, icon, count) = (tr("Starred"), "starred-symbolic", sidebar.starredCount)
                description = trn("%d starred entry", "%d starred entries", count).replacingOccurrences(of: "%d", with: "\(count)")
                accessibleName = FeedSidebar.accessibleName(title, starred: count)
                return
            case let .folder(id):
                let folder = sidebar.foldersByID[id]
                (title, icon, count) = (folder?.name ?? "", "folder-symbolic", folder?.unreadCount ?? 0)
            case let .feed(id):
                feed = sidebar.feedsByID[id]
                (title, count) = (feed.map(FeedSidebar.title) ?? "", feed?.unreadCount ?? 0)
                tooltip = feed.flatMap(FeedSidebar.tooltip)
            case let .account(id):
                guard let account = sidebar.accountsByID[id] else { return }
                (title, icon, count) = (account.name.server, "network-server-symbolic", account.unreadCount)
                subtitle = account.name.service.map { account.name.user + " · " + $0 } ?? account.name.user
                syncError = account.account.lastError.map { $0.message(for: account.account.kind) }
                tooltip = syncError
                // The service is named for screen readers, after the user and the server.
                description = ([account.account.kind.displayName] + (syncError.map { [$0] } ?? [])).joined(separator: " ")
                accessibleName = FeedSidebar.accessibleName(account.name.text, unread: count)
                return
            }
            description = trn("%d unread entry", "%d unread entries", count).replacingOccurrences(of: "%d", with: "\(count)")
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

    /// "GNOME Desktop Notes, 3 unread".
    static func accessibleName(_ title: String, unread: Int) -> String {
        // TRANSLATORS: a feed's name for screen readers; %@ is its title, %d how many of its entries are unread.
        trn("%@, %d unread", "%@, %d unread", unread).filling(phrase: title).filling(count: unread)
    }

    /// "Starred, 2 entries".
    static func accessibleName(_ title: String, starred: Int) -> String {
        // TRANSLATORS: the Starred list's name for screen readers; %@ is "Starred", %d how many entries it holds.
        trn("%@, %d entry", "%@, %d entries", starred).filling(phrase: title).filling(count: starred)
    }
}
