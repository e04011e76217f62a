import CAdw
import CGtk
import RefreshGtk

/// The window's content as views/window.ui lays it out: the leaflets, the panes' header bars and
/// their controls, by id. The panes' own widgets (sidebar, list, article) are added from Swift.
@MainActor
struct WindowLayout {
    static let file = "views/window.ui"

    let toastOverlay: OpaquePointer
    let leafletFrame: UnsafeMutablePointer<GtkWidget>
    let outerLeaflet: OpaquePointer
    let innerLeaflet: OpaquePointer
    let sidebarPane: UnsafeMutablePointer<GtkWidget>
    let sidebarContent: UnsafeMutablePointer<GtkWidget>
    let sidebarTitle: OpaquePointer
    let addButton: UnsafeMutablePointer<GtkWidget>
    let refreshButton: UnsafeMutablePointer<GtkWidget>
    let refreshState: UnsafeMutablePointer<GtkWidget>
    let refreshSpinner: UnsafeMutablePointer<GtkWidget>
    let mainMenuButton: UnsafeMutablePointer<GtkWidget>
    /// Where Refresh and the main menu go in each pane's header bar (``WindowButtons``).
    let windowButtonSlots: [PaneLeaflet.Pane: WindowButtons.Slots]
    /// The list's bar at its foot, for Refresh, Search and Unread while the list shows alone (``WindowButtons``).
    let listBar: WindowButtons.ListBar
    let listPane: UnsafeMutablePointer<GtkWidget>
    let listContent: UnsafeMutablePointer<GtkWidget>
    let listTitle: OpaquePointer
    let listBackButton: UnsafeMutablePointer<GtkWidget>
    let searchButton: UnsafeMutablePointer<GtkWidget>
    let unreadButton: UnsafeMutablePointer<GtkWidget>
    let searchBar: UnsafeMutablePointer<GtkWidget>
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    let saveSearchButton: UnsafeMutablePointer<GtkWidget>
    let listStack: UnsafeMutablePointer<GtkWidget>
    let entriesSlot: UnsafeMutablePointer<GtkWidget>
    let listStatus: OpaquePointer
    let listStatusButton: UnsafeMutablePointer<GtkWidget>
    let listOtherSources: UnsafeMutablePointer<GtkWidget>
    let articlePane: UnsafeMutablePointer<GtkWidget>
    let articleContent: UnsafeMutablePointer<GtkWidget>
    let articleHeader: OpaquePointer
    let articleBackButton: UnsafeMutablePointer<GtkWidget>

    /// The layout from the registered resource bundle (AppResources), which holds it.
    init() {
        let file = BuilderFile(Self.file, followingLanguage: true)
        func object<T>(_ id: String) -> UnsafeMutablePointer<T> { file.object(id) }
        func opaque(_ id: String) -> OpaquePointer { file.opaque(id) }
        toastOverlay = opaque("toast_overlay")
        // The builder's reference goes with it: the window holds the layout from here on.
        g_object_ref_sink(cast(toastOverlay))
        leafletFrame = object("leaflet_frame")
        outerLeaflet = opaque("outer_leaflet")
        innerLeaflet = opaque("inner_leaflet")
        sidebarPane = object("sidebar_pane")
        sidebarContent = object("sidebar_content")
        sidebarTitle = opaque("sidebar_title")
        addButton = object("add_button")
        refreshButton = object("refresh_button")
        refreshState = object("refresh_state")
        refreshSpinner = object("refresh_spinner")
        mainMenuButton = object("main_menu_button")
        windowButtonSlots = [
            .feeds: WindowButtons.Slots(refresh: object("sidebar_refresh_slot"), menu: object("sidebar_menu_slot")),
            .entries: WindowButtons.Slots(refresh: object("list_refresh_slot"), menu: object("list_menu_slot")),
            .article: WindowButtons.Slots(refresh: object("article_refresh_slot"), menu: object("article_menu_slot")),
        ]
        listBar = WindowButtons.ListBar(bar: object("list_bar"), refresh: object("list_bar_refresh_slot"), slots: [
            (button: object("search_button"), header: object("list_search_slot"), bar: object("list_bar_search_slot")),
            (button: object("unread_button"), header: object("list_unread_slot"), bar: object("list_bar_unread_slot")),
        ])
        listPane = object("list_pane")
        listContent = object("list_content")
        listTitle = opaque("list_title")
        listBackButton = object("list_back_button")
        searchButton = object("search_button")
        unreadButton = object("unread_button")
        searchBar = object("search_bar")
        searchEntry = object("search_entry")
        saveSearchButton = object("save_search_button")
        listStack = object("list_stack")
        entriesSlot = object("entries_slot")
        listStatus = opaque("list_status")
        listStatusButton = object("list_status_button")
        listOtherSources = object("list_other_sources")
        articlePane = object("article_pane")
        articleContent = object("article_content")
        articleHeader = opaque("article_header")
        articleBackButton = object("article_back_button")
    }

    /// The layout's top widget, for the window's content.
    var widget: UnsafeMutablePointer<GtkWidget> { UnsafeMutablePointer(toastOverlay) }

    /// The list pane's title and empty state, which Reading keeps.
    var listPaneParts: Reading.ListPane {
        Reading.ListPane(title: listTitle, stack: listStack, status: listStatus, statusButton: listStatusButton, otherSources: listOtherSources)
    }

    /// Puts the panes' own widgets in their places: the sidebar, the list pane's parts top to
    /// bottom (the last one fills it), the article with its buttons in the article's header bar.
    func place(sidebar: UnsafeMutablePointer<GtkWidget>, entries: [UnsafeMutablePointer<GtkWidget>], article: ArticleView) {
        gtk_widget_set_vexpand(sidebar, 1)
        gtk_box_append(cast(sidebarContent), sidebar)
        if let last = entries.last { gtk_widget_set_vexpand(last, 1) }
        for part in entries { gtk_box_append(cast(entriesSlot), part) }
        gtk_box_append(cast(articleContent), article.widget)
        adw_header_bar_pack_end(articleHeader, article.openButton)
        adw_header_bar_pack_end(articleHeader, article.starButton)
        adw_header_bar_pack_end(articleHeader, article.fullArticle.slot)
    }
}
