import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Three panes side by side in a wide window, the list and the article without the sidebar in a
/// middling one, one pane at a time with back buttons in a narrow one.
final class PaneLeafletTests: XCTestCase {
    /// Down to a phone's 360 px, with the one close button a phone's shell (Phosh, GNOME Mobile)
    /// and GNOME put in header bars: the list shown alone holds Back, its title and the main menu
    /// in its header, Refresh, Search and Unread in its bar at its foot.
    func testTheWindowFoldsTheSidebarFirstThenTheListAndTheArticle() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let desktopLayout = Self.setDecorationLayout("appmenu:close")
            defer { Self.setDecorationLayout(desktopLayout) }
            let window = app.window
            let cases: [(width: Int32, shown: [PaneLeaflet.Pane], listBack: Bool, articleBack: Bool)] = [
                (1240, [.feeds, .entries, .article], false, false),
                (1020, [.feeds, .entries, .article], false, false),
                (960, [.entries, .article], true, false),
                (640, [.entries, .article], true, false),
                (560, [.entries], true, true),
                (360, [.entries], true, true),
            ]
            // Without the leaflets' slides: the renders show where the panes end up.
            GtkTestEnvironment.withAnimations(false) {
                for (width, shown, listBack, articleBack) in cases {
                    Self.resize(app, width: width)
                    XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == shown },
                                  "\(width) px: \(Self.shownPanes(window)), not \(shown)")
                    // A pane's back button is there whenever the pane shows without the one before it.
                    XCTAssertEqual(gtk_widget_get_visible(window.layout.listBackButton) != 0, listBack, "\(width) px: the list's back button")
                    XCTAssertEqual(gtk_widget_get_visible(window.layout.articleBackButton) != 0, articleBack, "\(width) px: the article's back button")
                    saveRender(window.window, name: "leaflet-\(width)")
                }
            }
            var minimum: Int32 = 0
            gtk_widget_measure(window.window, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
            XCTAssertLessThanOrEqual(minimum, 360, "a phone-sized window fits: the three panes no longer hold it at 936 px")
        }
    }

    func testTheListKeepsItsWidthAndTheArticleTakesTheRestWhateverIsSelected() throws {
        try onMain {
            // The bundled samples: feeds with titles and entries of different lengths.
            let app = try ReaderFixture(healingStoreIn: temporaryDirectory())
            defer { app.close() }
            let window = app.window
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { window.sidebar.feedIDs.count == 3 })
            let feeds = window.sidebar.feedIDs
            GtkTestEnvironment.withAnimations(false) {
                for width: Int32 in [1280, 1000, 800] {
                    Self.resize(app, width: width)
                    var widths: [String: (list: Int32, article: Int32)] = [:]
                    for (name, selection) in [("All Feeds", FeedSelection.all)] + feeds.map({ ("feed \($0)", FeedSelection.feed($0)) }) {
                        window.sidebar.select(selection)
                        // The selected feed's own entries listed, not the last one's still showing under its title.
                        XCTAssertTrue(GtkTestEnvironment.iterate {
                            let listed = window.entryList.order.compactMap { window.entryList.entries[$0]?.feedID }
                            guard window.entryList.source == selection, !listed.isEmpty else { return false }
                            if case let .feed(id) = selection { return listed.allSatisfy { $0 == id } }
                            return Set(listed).count > 1
                        }, "\(name)")
                        GtkTestEnvironment.waitForFrames(of: window.window)
                        widths[name] = (gtk_widget_get_width(window.layout.listContent), gtk_widget_get_width(window.article.widget))
                    }
                    let list = widths["All Feeds"]!.list, article = widths["All Feeds"]!.article
                    // At 1000 px the three natural widths fill the window, and the separators between
                    // the panes take a pixel or two from them.
                    XCTAssertTrue(((PaneLeaflet.NaturalWidth.list - 2)...400).contains(list), "\(width) px: the list is \(list) px wide")
                    // At 1000 px the sidebar still shows, and the article has what is left of it.
                    XCTAssertGreaterThan(article, width >= 1280 ? 600 : PaneLeaflet.paneMinimumWidth, "\(width) px: the article takes the rest")
                    for (name, shown) in widths {
                        XCTAssertEqual(shown.list, list, "\(width) px, \(name): the list does not move")
                        XCTAssertEqual(shown.article, article, "\(width) px, \(name): the article does not move")
                    }
                    saveRender(window.window, name: "panes-\(width)")
                }
            }
        }
    }

    /// Sidebar names were cut at ordinary lengths ("Field Notes: Open Source Gard…" beside a
    /// three-figure count) at 1280 and 1000 px, and a wider sidebar squeezed the list under
    /// Wayland: at every width the sidebar shows at, such a name shows whole (on a second line
    /// where one is too short), the list keeps its width, and only a name too long for two lines
    /// is cut, with the whole name in its tooltip.
    func testAnOrdinaryFeedNameShowsWholeBesideAThreeFigureCountAtEveryWidth() throws {
        let ordinary = "Field Notes: Open Source Gardening"
        // 120 entries, unread: a three-figure count beside the name; the list shows its first page of 50.
        try withReader(serving: plainFeed(entries: 120, title: ordinary), entries: 50) { app in
            let window = app.window
            let (feedID, row) = try Self.feedRow(of: window, showing: ordinary)
            GtkTestEnvironment.withAnimations(false) {
                // 1020 px: the narrowest window that shows the three panes (the sidebar folds away
                // below 1000 px of panes, and a window's frame takes some); at 1000 px it may have
                // folded, and is then one Back away, shown alone.
                for width: Int32 in [1280, 1020, 1000, 800] {
                    Self.resize(app, width: width)
                    GtkTestEnvironment.waitForFrames(of: window.window)
                    GtkTestEnvironment.waitForFrames(of: window.window)
                    if window.panes.isSidebarFolded {
                        XCTAssertLessThan(width, 1020, "\(width) px shows the three panes")
                        RealInput.key(windowTitle: app.title, "alt+Left")
                        XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds] }, "\(width) px: the feeds")
                    } else {
                        XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds, .entries, .article] })
                        let list = gtk_widget_get_width(window.layout.listContent)
                        XCTAssertTrue(((PaneLeaflet.NaturalWidth.list - 2)...400).contains(list), "\(width) px: the list is \(list) px wide")
                    }
                    GtkTestEnvironment.waitForFrames(of: window.window)
                    guard let widgets = row() else { return XCTFail("\(width) px: no row for the feed") }
                    XCTAssertEqual(String(cString: gtk_label_get_text(cast(widgets.count))), "120")
                    XCTAssertNotEqual(gtk_widget_get_mapped(widgets.count), 0, "\(width) px: the count shows")
                    var natural: Int32 = 0
                    gtk_widget_measure(widgets.name, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
                    let lines = gtk_label_get_layout(cast(widgets.name)).map { pango_layout_get_line_count($0) } ?? 0
                    XCTAssertFalse(widgets.isNameCut, "\(width) px: the name shows whole in \(gtk_widget_get_width(widgets.name)) px "
                                   + "(\(natural) px on one line), on \(lines) lines")
                    XCTAssertLessThanOrEqual(lines, SidebarRowWidgets.nameLines)
                    XCTAssertNil(widgets.nameTooltip, "\(width) px: no tooltip repeats a name shown whole")
                    saveRender(window.window, name: "sidebar-name-\(width)")
                    if window.panes.isSidebarFolded { window.sidebar.select(.feed(feedID)) }
                }
                Self.resize(app, width: 1280)
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds, .entries, .article] })
                let long = "The Extraordinarily Long and Winding Weekly Newsletter of the Open Source Gardening Society of Greater Manchester"
                guard let widgets = row(), let item = widgets.sidebarItem else { return XCTFail("no row for the feed") }
                item.title = long
                XCTAssertTrue(GtkTestEnvironment.iterate { widgets.isNameCut }, "a name too long for two lines is cut")
                XCTAssertEqual(widgets.nameTooltip, long, "and its tooltip is the whole name")
                saveRender(window.window, name: "sidebar-name-long")
            }
        }
    }

    /// Only a name longer than ``SidebarRowWidgets/oneLineNameColumns`` wraps (wrapping costs a
    /// layout per measure); the longest that does not, in capitals beside a three-figure count,
    /// still shows whole on one line of the sidebar at its narrowest, beside the list and the article.
    func testANameTooShortToWrapStillFitsTheNarrowestSidebar() throws {
        let name = String("ABCDEFGHIJKLMNOPQRSTUVWXYZ".prefix(SidebarRowWidgets.oneLineNameColumns))
        try withReader(serving: plainFeed(entries: 120, title: name), entries: 50) { app in
            let window = app.window
            let row = try Self.feedRow(of: window, showing: name).row
            GtkTestEnvironment.withAnimations(false) {
                // The narrowest window that shows the three panes: the sidebar at its narrowest.
                Self.resize(app, width: 1020)
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds, .entries, .article] })
                GtkTestEnvironment.waitForFrames(of: window.window)
                guard let widgets = row() else { return XCTFail("no row for the feed") }
                XCTAssertEqual(String(cString: gtk_label_get_text(cast(widgets.count))), "120")
                XCTAssertEqual(gtk_label_get_wrap(cast(widgets.name)), 0, "a short name is laid out on one line")
                var natural: Int32 = 0
                gtk_widget_measure(widgets.name, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
                let room = gtk_widget_get_width(widgets.name)
                XCTAssertFalse(widgets.isNameCut, "the name shows whole: \(natural) px in \(room) px")
                XCTAssertGreaterThanOrEqual(room - natural, 16, "with room for a folder's indent")
                saveRender(window.window, name: "sidebar-name-one-line")
                guard let item = widgets.sidebarItem else { return XCTFail("no item for the row") }
                item.title = name + "M"
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_label_get_wrap(cast(widgets.name)) != 0 }, "a longer one wraps")
            }
        }
    }

    /// Columns of names, a wide East Asian character or emoji taking two.
    func testANamesColumnsCountWideCharactersTwice() {
        let cases: [(name: String, columns: Int)] = [
            ("", 0), ("LWN.net", 7), ("Ars Technica", 12), ("Café Müller", 11), ("أخبار التقنية", 13),
            ("日本経済新聞", 12), ("한겨레", 6), ("カタカナ", 8), ("ＡＢＣ", 6), ("News 📰", 7),
        ]
        for (name, columns) in cases {
            XCTAssertEqual(SidebarRowWidgets.columns(of: name), columns, name)
        }
    }

    func testANarrowWindowShowsOnePaneAtATimeAndTheKeyboardMovesBetweenThem() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window
            Self.resize(app, width: 500)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] },
                          "narrow, the list alone: \(Self.shownPanes(window))")
            XCTAssertTrue(Self.isShown(window.layout.listBackButton), "with a way back to the feeds")

            RealInput.click(windowTitle: app.title, at: app.point(in: window.entryList.listView, x: 100, y: 20))
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.article] }, "a click on an entry shows its article")
            XCTAssertTrue(Self.isShown(window.layout.articleBackButton), "with a way back to the list")
            XCTAssertTrue(Self.isShown(window.article.starButton), "and the entry's star in the article's own header bar")
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { window.article.entry?.title == "Entry 1" && window.article.isLoaded })
            saveRender(window.window, name: "leaflet-narrow-article-light")

            RealInput.key(windowTitle: app.title, "alt+Left")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] }, "Alt+Left goes back to the list")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.focusIsIn(window.entryList.listView, of: window) }, "which has the focus")
            XCTAssertEqual(window.entryList.selectedEntry?.title, "Entry 1", "the entry read stays selected")
            RealInput.key(windowTitle: app.title, "j")
            XCTAssertTrue(GtkTestEnvironment.iterate { window.entryList.selectedEntry?.title == "Entry 2" && Self.shownPanes(window) == [.article] },
                          "j reads the next entry")

            RealInput.click(windowTitle: app.title, at: app.point(in: window.layout.articleBackButton, x: 12, y: 12))
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] }, "the back button leads to the list")
            RealInput.click(windowTitle: app.title, at: app.point(in: window.layout.listBackButton, x: 12, y: 12))
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds] }, "and on to the feeds")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.focusIsIn(window.sidebar.widget, of: window) })
            saveRender(window.window, name: "leaflet-narrow-feeds-light")
            RealInput.key(windowTitle: app.title, "Down")
            RealInput.key(windowTitle: app.title, "Return")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] && window.sidebar.selection == .starred },
                          "Enter on a feed lists its entries: \(Self.shownPanes(window)) \(window.sidebar.selection)")
            XCTAssertEqual(Self.listTitle(window), "Starred", "the list's header names what it lists")

            let styles = adw_style_manager_get_default()
            adw_style_manager_set_color_scheme(styles, ADW_COLOR_SCHEME_FORCE_DARK)
            defer { adw_style_manager_set_color_scheme(styles, ADW_COLOR_SCHEME_DEFAULT) }
            XCTAssertTrue(GtkTestEnvironment.iterate { adw_style_manager_get_dark(styles) != 0 })
            saveRender(window.window, name: "leaflet-narrow-list-dark")
            GtkTestEnvironment.withAnimations(false) {
                Self.resize(app, width: 1240)
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds, .entries, .article] },
                              "wide again, the three panes: \(Self.shownPanes(window))")
                saveRender(window.window, name: "leaflet-wide-dark")
            }
            XCTAssertFalse(Self.isShown(window.layout.listBackButton))
        }
    }

    /// At a phone's 420 px, an entry clicked or opened with Enter showed its article with the
    /// keyboard on Open in Browser in the header, where the arrow keys moved among the header's
    /// buttons: the article's page takes the keyboard, so the arrow keys scroll it, and Enter
    /// there still opens the entry in the browser, in light and dark, left to right and in Arabic.
    func testAtAPhonesWidthTheArticleShownTakesTheKeyboardForReading() throws {
        try withReader(serving: ArticleViewTests.feedXML, entries: 2) { app in
            let window = app.window
            var opened: [URL] = []
            window.reading.openLink = { opened.append($0) }
            let styles = adw_style_manager_get_default()
            defer {
                window.switchLanguage(to: "en")
                adw_style_manager_set_color_scheme(styles, ADW_COLOR_SCHEME_DEFAULT)
            }
            GtkTestEnvironment.withAnimations(false) { Self.resize(app, width: 420) }
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] }, "\(Self.shownPanes(window))")
            @MainActor func focusName() -> String {
                gtk_root_get_focus(cast(window.window)).map { String(cString: gtk_widget_get_name($0)) } ?? "nothing"
            }
            let cases: [(language: String, dark: Bool, byKey: Bool)] = [("en", false, false), ("en", true, true), ("ar", false, true), ("ar", true, false)]
            for (language, dark, byKey) in cases {
                let name = "\(language), \(dark ? "dark" : "light"), \(byKey ? "Enter" : "a click")"
                window.switchLanguage(to: language)
                gtk_window_set_title(cast(window.window), app.title)
                adw_style_manager_set_color_scheme(styles, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT)
                GtkTestEnvironment.waitForFrames(of: window.window)
                if byKey {
                    XCTAssertTrue(GtkTestEnvironment.iterate { Self.focusIsIn(window.entryList.listView, of: window) }, "\(name): the list has the keyboard")
                    RealInput.key(windowTitle: app.title, "Return")
                } else {
                    RealInput.click(windowTitle: app.title, at: app.point(in: window.entryList.listView, x: 100, y: 20))
                }
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.article] }, "\(name): the article shows")
                XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { window.article.entry?.title == "Formatted & safe" && window.article.isLoaded })
                let webView = try XCTUnwrap(window.article.webView)
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_has_focus(webView) != 0 },
                              "\(name): the article's page has the keyboard, not \(focusName())")
                XCTAssertEqual(gtk_widget_has_focus(window.article.openButton), 0, "\(name): not Open in Browser")
                let top = try XCTUnwrap(KeyboardTests.scrollY(of: webView))
                RealInput.key(windowTitle: app.title, "Down")
                XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { (KeyboardTests.scrollY(of: webView) ?? top) > top },
                              "\(name): Down scrolls the article")
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_has_focus(webView) != 0 }, "\(name): and the page keeps the keyboard")
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window.window, name: "narrow-article-focus-\(language)-\(dark ? "dark" : "light")") })
                let before = opened.count
                RealInput.key(windowTitle: app.title, "Return")
                XCTAssertTrue(GtkTestEnvironment.iterate { opened.count == before + 1 }, "\(name): Enter on the page opens the entry in the browser")
                XCTAssertEqual(opened.last, URL(string: "https://example.org/posts/formatted"))
                RealInput.key(windowTitle: app.title, language == "ar" ? "alt+Right" : "alt+Left")
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] }, "\(name): Back to the list")
            }
        }
    }

    func testInTheTwoPaneStepTheSidebarIsOneBackAwayAndAFeedLeadsBack() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window
            Self.resize(app, width: 800)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries, .article] }, "\(Self.shownPanes(window))")
            RealInput.key(windowTitle: app.title, "j")
            XCTAssertTrue(GtkTestEnvironment.iterate { window.article.entry?.title == "Entry 1" }, "the article beside the list")
            XCTAssertEqual(Self.shownPanes(window), [.entries, .article], "and the list stays beside it")
            RealInput.key(windowTitle: app.title, "alt+Left")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds] }, "back to the feeds")
            RealInput.key(windowTitle: app.title, "shift+j")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries, .article] },
                          "the next feed shows its entries beside the article: \(Self.shownPanes(window))")
        }
    }

    /// At 800 px adding a feed took Back and then the sidebar's +; a + of its own in the list's
    /// header then cut the list's title: with the sidebar folded away, Add Feed is in the main
    /// menu (MainMenuTests: its action), which opens with one click in the article's header.
    func testWithTheSidebarFoldedAwayAddFeedIsInTheMainMenuBesideTheList() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window
            let menu = window.layout.mainMenuButton
            // Without the leaflets' slide: the menu is clicked where it ends up.
            GtkTestEnvironment.withAnimations(false) {
                Self.resize(app, width: 800)
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries, .article] })
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    Self.isShown(menu) && gtk_widget_is_ancestor(menu, window.layout.articleContent) != 0
                }, "the main menu is at the end of the article's header")
                GtkTestEnvironment.waitForFrames(of: window.window)
            }
            RealInput.click(windowTitle: app.title, at: app.point(in: menu, x: 12, y: 12))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_menu_button_get_popover(cast(menu)).map { gtk_widget_get_mapped(cast($0)) != 0 } ?? false })
            let popover = try XCTUnwrap(gtk_menu_button_get_popover(cast(menu)))
            let item = descendant(of: UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkWidget.self)) {
                isWidget($0, a: gtk_label_get_type()) && String(cString: gtk_label_get_text(cast($0))) == "Add Feed…"
            }
            XCTAssertTrue(item.map { gtk_widget_get_mapped($0) != 0 } ?? false, "the open menu shows Add Feed…")
            XCTAssertEqual(item.map { gtk_label_get_use_underline(cast($0)) != 0 }, true, "with its mnemonic")
            gtk_popover_popdown(cast(popover))
        }
    }

    /// At 600–1000 px Refresh and the main menu were only behind Back, on the folded-away
    /// sidebar: at every width they are in the header bars of the panes shown, the sidebar's,
    /// the list's and the article's beside it, or the one pane's shown alone (the list alone has
    /// Refresh in its bar at its foot, shown only then), and the main menu opens from there with a click.
    func testRefreshAndTheMainMenuAreInTheShownPanesHeadersAtEveryWidth() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window
            let (refresh, menu) = (window.layout.refreshButton, window.layout.mainMenuButton)
            let paneWidget: [PaneLeaflet.Pane: UnsafeMutablePointer<GtkWidget>] = [
                .feeds: window.layout.sidebarContent, .entries: window.layout.listContent, .article: window.layout.articleContent,
            ]
            @MainActor func header(of pane: PaneLeaflet.Pane) -> UnsafeMutablePointer<GtkWidget>? {
                paneWidget[pane].flatMap { descendant(of: $0) { isWidget($0, a: adw_header_bar_get_type()) } }
            }
            @MainActor func inPlace(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
                let places = WindowButtons.places(among: Self.shownPanes(window))
                let container: UnsafeMutablePointer<GtkWidget>? = if widget == menu {
                    header(of: places.menu)
                } else if case let .header(pane) = places.refresh {
                    header(of: pane)
                } else {
                    window.layout.listBar.bar
                }
                return Self.isShown(widget) && container.map { gtk_widget_is_ancestor(widget, $0) != 0 } ?? false
            }
            GtkTestEnvironment.withAnimations(false) {
                for width: Int32 in [1280, 1000, 800, 600, 420] {
                    Self.resize(app, width: width)
                    GtkTestEnvironment.waitForFrames(of: window.window)
                    XCTAssertTrue(GtkTestEnvironment.iterate { inPlace(refresh) && inPlace(menu) },
                                  "\(width) px, \(Self.shownPanes(window)): Refresh and the main menu are in the shown panes' headers")
                    XCTAssertEqual(Self.isShown(window.layout.listBar.refresh), Self.shownPanes(window) == [.entries],
                                   "\(width) px: the list's bar shows only while the list shows alone")
                    saveRender(window.window, name: "window-buttons-\(width)")
                    guard Self.shownPanes(window) == [.entries] else { continue }
                    // One pane: the article alone has them too.
                    RealInput.click(windowTitle: app.title, at: app.point(in: window.entryList.listView, x: 100, y: 20))
                    XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.article] })
                    XCTAssertTrue(GtkTestEnvironment.iterate { inPlace(refresh) && inPlace(menu) },
                                  "\(width) px, the article alone: Refresh and the main menu are in its header")
                    saveRender(window.window, name: "window-buttons-\(width)-article")
                    RealInput.key(windowTitle: app.title, "alt+Left")
                    XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries] })
                }
                Self.resize(app, width: 800)
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.entries, .article] && inPlace(menu) })
                GtkTestEnvironment.waitForFrames(of: window.window)
            }
            RealInput.click(windowTitle: app.title, at: app.point(in: menu, x: 12, y: 12))
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_menu_button_get_popover(cast(menu)).map { gtk_widget_get_mapped(cast($0)) != 0 } ?? false },
                          "at 800 px one click opens the main menu")
            saveScreen(name: "window-buttons-800-menu")
            RealInput.key(windowTitle: app.title, "Escape")
        }
    }

    /// At 800 px the list's header held six buttons and cut its title ("Alle Fee…" in German,
    /// the same in Arabic), and at 420 px, the list alone beside a desktop's minimize, maximize and
    /// close buttons, "Todas las fuen…": in every language, at 1280, 1000, 800 and 420 px, the
    /// list's title shows whole, and its controls stay in reach, each named for screen readers.
    func testTheListsTitleShowsWholeInEveryLanguageAtEveryWidth() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window
            let languages = Self.everyLanguageBesideTheWindowButtons()
            defer { Self.restoreLanguageAndWindowButtons(of: window, languages.layout) }
            let header = try XCTUnwrap(descendant(of: window.layout.listContent) { isWidget($0, a: adw_header_bar_get_type()) })
            GtkTestEnvironment.withAnimations(false) {
                for language in languages.codes {
                    window.switchLanguage(to: language)
                    for width: Int32 in [1280, 1000, 800, 420] {
                        Self.resize(app, width: width)
                        XCTAssertTrue(GtkTestEnvironment.iterate {
                            width > 600 ? Self.shownPanes(window).suffix(2) == [.entries, .article] : Self.shownPanes(window) == [.entries]
                        }, "\(language), \(width) px: \(Self.shownPanes(window))")
                        if width < 600 {
                            // The case this width is for: the list's header ends in the window's three buttons.
                            let maximize = descendant(of: header) { gtk_widget_has_css_class($0, "maximize") != 0 }
                            XCTAssertTrue(Self.isShown(maximize), "\(language), \(width) px: the list's header has the window's buttons")
                        }
                        for selection in [FeedSelection.all, .starred] {
                            window.sidebar.select(selection)
                            GtkTestEnvironment.waitForFrames(of: window.window)
                            GtkTestEnvironment.waitForFrames(of: window.window)
                            let label = try? XCTUnwrap(descendant(of: UnsafeMutablePointer(window.layout.listTitle)) {
                                isWidget($0, a: gtk_label_get_type()) && gtk_widget_has_css_class($0, "title") != 0
                            })
                            guard let label else { continue }
                            let title = String(cString: gtk_label_get_text(cast(label)))
                            XCTAssertEqual(gtk_label_get_layout(cast(label)).map { pango_layout_is_ellipsized($0) } ?? 1, 0,
                                           "\(language), \(width) px: “\(title)” shows whole in \(gtk_widget_get_width(label)) px")
                            if ["de", "es", "ar"].contains(language), [800, 420].contains(width), selection == .all {
                                saveRender(window.window, name: "list-title-\(language)-\(width)")
                            }
                        }
                        let controls = [(window.layout.searchButton, tr("Search")), (window.layout.unreadButton, tr("Show only unread entries")),
                                        (window.layout.refreshButton, tr("Refresh")), (window.layout.mainMenuButton, tr("Main Menu"))]
                        for (control, name) in controls {
                            XCTAssertTrue(Self.isShown(control), "\(language), \(width) px: \(name) is beside the list")
                            XCTAssertNil(AccessibilityTests.labelMismatch(control, name))
                        }
                    }
                }
            }
        }
    }

    /// The feeds shown alone at a phone's 420 px, as the list is checked above: beside Add Feed,
    /// Refresh, the main menu and a desktop's minimize, maximize and close buttons their title was
    /// cut ("Lector de fu…"). In every language it shows whole, Add Feed and the main menu stay
    /// in their header and Refresh is in their bar at their foot, as the list alone has it, each named.
    func testTheFeedsTitleShowsWholeBesideTheWindowButtonsInEveryLanguage() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window
            let languages = Self.everyLanguageBesideTheWindowButtons()
            defer { Self.restoreLanguageAndWindowButtons(of: window, languages.layout) }
            let header = try XCTUnwrap(descendant(of: window.layout.sidebarContent) { isWidget($0, a: adw_header_bar_get_type()) })
            let title = try XCTUnwrap(descendant(of: UnsafeMutablePointer(window.layout.sidebarTitle)) {
                isWidget($0, a: gtk_label_get_type()) && gtk_widget_has_css_class($0, "title") != 0
            })
            GtkTestEnvironment.withAnimations(false) {
                Self.resize(app, width: 420)
                window.panes.show(.feeds)
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.shownPanes(window) == [.feeds] }, "the feeds alone: \(Self.shownPanes(window))")
                for language in languages.codes {
                    window.switchLanguage(to: language)
                    GtkTestEnvironment.waitForFrames(of: window.window)
                    GtkTestEnvironment.waitForFrames(of: window.window)
                    let maximize = descendant(of: header) { gtk_widget_has_css_class($0, "maximize") != 0 }
                    XCTAssertTrue(Self.isShown(maximize), "\(language): the feeds' header has the window's buttons")
                    let shown = String(cString: gtk_label_get_text(cast(title)))
                    var natural: Int32 = 0
                    gtk_widget_measure(title, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
                    XCTAssertTrue(Self.isShown(title), "\(language): the title shows")
                    XCTAssertEqual(gtk_label_get_layout(cast(title)).map { pango_layout_is_ellipsized($0) } ?? 1, 0,
                                   "\(language): “\(shown)” shows whole: \(natural) px in \(gtk_widget_get_width(title)) px")
                    let controls = [(window.layout.addButton, tr("Add Feed"), header), (window.layout.mainMenuButton, tr("Main Menu"), header),
                                    (window.layout.refreshButton, tr("Refresh"), header)]
                    for (control, name, place) in controls {
                        XCTAssertTrue(Self.isShown(control) && gtk_widget_is_ancestor(control, place) != 0,
                                      "\(language): \(name) is in the feeds' \(place == header ? "header" : "bar")")
                        XCTAssertNil(AccessibilityTests.labelMismatch(control, name))
                    }
                    if ["en", "de", "es", "ar", "uk"].contains(language) {
                        saveRender(window.window, name: "feeds-title-\(language)-420")
                    }
                }
            }
        }
    }

    /// The 13 languages, English first, with a desktop's minimize, maximize and close buttons set
    /// beside a header's menu (GTK's own default, and Ubuntu's and Fedora's with minimize and
    /// maximize turned on); returns the layout there was, for `restoreLanguageAndWindowButtons`.
    @MainActor
    static func everyLanguageBesideTheWindowButtons() -> (codes: [String], layout: String) {
        let layout = setDecorationLayout("menu:minimize,maximize,close")
        let codes = ["en"] + RefreshLocalization.availableLanguages.filter { $0 != "en" }
        XCTAssertEqual(codes.count, 13, "English and the 12 translations")
        return (codes, layout)
    }

    /// English again, and the window buttons `layout` was: a switch back to the system's ("")
    /// kept German for the next tests in this process.
    @MainActor
    static func restoreLanguageAndWindowButtons(of window: MainWindow, _ layout: String) {
        window.switchLanguage(to: "en")
        setDecorationLayout(layout)
    }

    /// Sets GtkSettings' window buttons, as GNOME's `button-layout` does; returns the layout before.
    @MainActor
    @discardableResult
    static func setDecorationLayout(_ layout: String) -> String {
        let settings = gtk_settings_get_default()
        var value = GValue()
        g_value_init(&value, g_type_from_name("gchararray"))
        defer { g_value_unset(&value) }
        g_object_get_property(cast(settings), "gtk-decoration-layout", &value)
        let previous = g_value_get_string(&value).map { String(cString: $0) } ?? ""
        g_value_set_string(&value, layout)
        g_object_set_property(cast(settings), "gtk-decoration-layout", &value)
        return previous
    }

    /// The window's one feed and a lookup of its sidebar row (GTK rebinds rows: each call finds
    /// it again), once the row shows `name`.
    @MainActor
    static func feedRow(of window: MainWindow, showing name: String, file: StaticString = #filePath, line: UInt = #line)
        throws -> (feedID: Int64, row: () -> SidebarRowWidgets?) {
        let feedID = try XCTUnwrap(window.sidebar.feedIDs.first, file: file, line: line)
        let row = { window.sidebar.rowWidgets(showing: .feed(feedID)) }
        XCTAssertTrue(GtkTestEnvironment.iterate { row().map { String(cString: gtk_label_get_text(cast($0.name))) } == name },
                      "the feed's row shows \(name)", file: file, line: line)
        return (feedID, row)
    }

    /// Resizes the window and waits until it has the new size, give or take its frame.
    @MainActor
    static func resize(_ app: ReaderFixture, width: Int32) {
        let window = app.window.window
        var asked: Int32 = 0, askedHeight: Int32 = 0
        gtk_window_get_default_size(cast(window), &asked, &askedHeight)
        let before = gtk_widget_get_width(window)
        gtk_window_set_default_size(cast(window), width, 700)
        // Within 20 px (the frame takes some), and changed where another width was asked for:
        // from 1020 to 1000 px, the old width alone was within 20 px.
        XCTAssertTrue(GtkTestEnvironment.iterate {
            let now = gtk_widget_get_width(window)
            return abs(now - width) <= 20 && (asked == width || now != before)
        }, "the window is \(width) px wide: \(gtk_widget_get_width(window))")
    }

    /// The panes a person sees: mapped, given some width and inside the window.
    @MainActor
    static func shownPanes(_ window: MainWindow) -> [PaneLeaflet.Pane] {
        let widgets: [(PaneLeaflet.Pane, UnsafeMutablePointer<GtkWidget>)] = [
            (.feeds, window.sidebar.widget), (.entries, window.layout.listContent), (.article, window.article.widget),
        ]
        return widgets.filter { pane, widget in
            guard isShown(widget), gtk_widget_get_width(widget) > 0, gtk_widget_get_child_visible(widget) != 0 else { return false }
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(widget, window.window, &bounds) != 0 else { return false }
            // A leaflet keeps a folded-away pane mapped while it slides: only one inside the window counts.
            return bounds.origin.x + bounds.size.width > 1 && bounds.origin.x < Float(gtk_widget_get_width(window.window)) - 1
        }.map(\.0)
    }

    @MainActor
    static func listTitle(_ window: MainWindow) -> String {
        String(cString: adw_window_title_get_title(window.layout.listTitle))
    }

    @MainActor
    static func isShown(_ widget: UnsafeMutablePointer<GtkWidget>?) -> Bool {
        guard let widget, gtk_widget_get_mapped(widget) != 0 else { return false }
        var ancestor: UnsafeMutablePointer<GtkWidget>? = widget
        while let current = ancestor {
            if gtk_widget_get_child_visible(current) == 0 { return false }
            ancestor = gtk_widget_get_parent(current)
        }
        return true
    }

    @MainActor
    private static func focusIsIn(_ widget: UnsafeMutablePointer<GtkWidget>, of window: MainWindow) -> Bool {
        guard let focus = gtk_root_get_focus(cast(window.window)) else { return false }
        return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
    }
}
