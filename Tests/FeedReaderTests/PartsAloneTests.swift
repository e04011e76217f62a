import AppSupport
import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Each dialog, page and bar built alone from its `.ui` file, without the main window: what a
/// person sees of it in German (its texts come from its file, through the catalogs, in the
/// language chosen at run time), its controls named for screen readers, and its actions' state.
final class PartsAloneTests: XCTestCase {
    /// Runs `body` on the main thread with German chosen, then goes back to the system's language.
    private func inGerman(_ body: @MainActor () throws -> Void) throws {
        try onMain {
            // libadwaita's styles, as the app's AdwApplication loads them.
            adw_init()
            defer { LanguageChoice.speak(nil) }
            LanguageChoice.speak("de")
            try body()
        }
    }

    func testAddFeedSpeaksGermanAndAddsOnlyAnAddress() throws {
        try inGerman {
            let dialog = AddFeedDialog(library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }
            defer { gtk_window_destroy(cast(dialog.window)) }
            try Self.show(dialog.window)
            XCTAssertEqual(String(cString: gtk_window_get_title(cast(dialog.window))), "Feed hinzufügen")
            XCTAssertEqual(Self.buttonLabels(in: dialog.window), ["_Abbrechen", "_Hinzufügen"])
            let entry = try XCTUnwrap(descendant(of: dialog.window) { isWidget($0, a: gtk_text_get_type()) })
            XCTAssertNil(AccessibilityTests.labelMismatch(entry, "Adresse"), "the address is named for screen readers")
            XCTAssertFalse(dialog.canAdd, "nothing to add before an address is typed")
            dialog.enter("not an address")
            XCTAssertFalse(dialog.canAdd)
            dialog.enter("https://example.org/feed.xml")
            XCTAssertTrue(dialog.canAdd)
        }
    }

    func testAddAccountSpeaksGermanAndAddsOnlyWhenEveryFieldIsFilled() throws {
        try inGerman {
            let dialog = AddAccountDialog(accounts: AccountSync(engine: SyncEngine(store: try FeedStore.inMemory()))) { _ in }
            defer { gtk_window_destroy(cast(dialog.window)) }
            try Self.show(dialog.window)
            XCTAssertEqual(String(cString: gtk_window_get_title(cast(dialog.window))), "Konto hinzufügen")
            XCTAssertEqual(PreferencesWindowTests.rowTitles(in: dialog.window), ["Dienst", "Serveradresse", "Benutzername", "Passwort"])
            XCTAssertEqual(dialog.choices.map(\.label), ["Tiny Tiny RSS", "Google Reader API", "Fever API"])
            XCTAssertFalse(dialog.canAdd)
            let rows = PreferencesWindowTests.widgets(under: dialog.window, a: adw_entry_row_get_type())
            for (row, text) in zip(rows, ["rss.example.org", "bob", "secret"]) { gtk_editable_set_text(cast(row), text) }
            XCTAssertTrue(dialog.canAdd, "every field filled")
        }
    }

    func testPreferencesSpeakGermanAndOfferTheirChoicesInTheirOrder() throws {
        try inGerman {
            let folder = FileManager.default.temporaryDirectory.appending(path: UUID().uuidString)
            defer { try? FileManager.default.removeItem(at: folder) }
            let preferences = Preferences(settings: SettingsStore(path: folder.appending(path: "settings.ini").path))
            let shown = PreferencesWindow(preferences)
            let window = shown.window
            defer { gtk_window_destroy(cast(window)) }
            try Self.show(window)
            XCTAssertEqual(String(cString: gtk_window_get_title(cast(window))), "Einstellungen")
            let row = { (title: String) in try XCTUnwrap(PreferencesWindowTests.row(titled: title, in: window), title) }
            XCTAssertEqual(PreferencesWindowTests.choices(try row("Stil")), ["Systemstil", "Hell", "Dunkel"])
            XCTAssertEqual(PreferencesWindowTests.choice(try row("Im Hintergrund aktualisieren")), "Alle 30 Minuten")
            let interval = try row("Im Hintergrund aktualisieren")
            XCTAssertEqual(PreferencesWindowTests.choices(interval).count, Preferences.refreshChoices.count)
            adw_combo_row_set_selected(cast(interval), 1)
            XCTAssertEqual(preferences.refreshMinutes, 15, "the list's order is refreshChoices'")
            XCTAssertEqual(PreferencesWindowTests.choices(try row("Gelesene Einträge behalten")).count, Preferences.keepChoices.count)
            XCTAssertEqual(PreferencesWindowTests.choices(try row("Textgröße")).count, Preferences.fontPointChoices.count)
            XCTAssertEqual(PreferencesWindowTests.choices(try row("Textgröße")).first, "Wie der Desktop")

            LanguageChoice.speak(nil)
            shown.rebuild()
            XCTAssertEqual(String(cString: gtk_window_get_title(cast(window))), "Preferences", "built again in the language now chosen")
            XCTAssertEqual(PreferencesWindowTests.choices(try row("Refresh in the background")),
                           ["Off", "Every 15 minutes", "Every 30 minutes", "Every hour", "Every 2 hours"])
            XCTAssertEqual(PreferencesWindowTests.choice(try row("Refresh in the background")), "Every 15 minutes", "the choice kept")
            XCTAssertEqual(PreferencesWindowTests.choices(try row("Keep read entries")),
                           ["For a week", "For a month", "For 3 months", "For 6 months", "For a year", "Forever"])
        }
    }

    func testTheAccountsPageSpeaksGermanAndOffersToAddAnAccount() throws {
        try inGerman {
            let window = adw_preferences_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            let page = AccountsPage(accounts: AccountSync(engine: SyncEngine(store: try FeedStore.inMemory())), window: window) { _ in }
            adw_preferences_window_add(cast(window), cast(page.page))
            try Self.show(window)
            XCTAssertEqual(String(cString: adw_preferences_page_get_title(cast(page.page))), "Konten")
            XCTAssertEqual(PreferencesWindowTests.rowTitles(in: page.page), ["Konto hinzufügen …"])
            let add = try XCTUnwrap(PreferencesWindowTests.row(titled: "Konto hinzufügen …", in: page.page))
            XCTAssertEqual(gtk_actionable_get_action_name(cast(add)).map { String(cString: $0) }, "accounts.add")
            XCTAssertNotEqual(gtk_widget_activate_action_variant(add, "accounts.add", nil), 0, "the row's action is there")
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Konto hinzufügen") != nil }, "and opens Add Account")
            if let dialog = toplevel(titled: "Konto hinzufügen") { gtk_window_destroy(cast(dialog)) }
        }
    }

    func testAboutSpeaksGerman() throws {
        try inGerman {
            let about = AboutWindow.make(metainfo: nil)
            defer { gtk_window_destroy(cast(about)) }
            XCTAssertEqual(String(cString: adw_about_window_get_application_name(cast(about))), "Feedreader")
            XCTAssertEqual(String(cString: adw_about_window_get_comments(cast(about))), "Lesen Sie Ihre Feeds; ziehen Sie zum Aktualisieren nach unten.")
            XCTAssertEqual(String(cString: adw_about_window_get_version(cast(about))), CommandLineOption.version)
        }
    }

    func testTheMainMenuSpeaksGerman() throws {
        try inGerman {
            let menu = MainMenu.make()
            defer { g_object_unref(cast(menu)) }
            let model: UnsafeMutablePointer<GMenuModel> = cast(menu)
            let apps = try XCTUnwrap(g_menu_model_get_item_link(model, 1, "section"))
            defer { g_object_unref(cast(apps)) }
            let label = try XCTUnwrap(g_menu_model_get_item_attribute_value(apps, 2, "label", nil))
            defer { g_variant_unref(label) }
            XCTAssertEqual(String(cString: g_variant_get_string(label, nil)), "I_nfo zu Feedreader")
        }
    }

    /// A notice bar's own words follow a language switch, and what it says stays.
    func testAProblemBarIsBuiltAgainInTheNewLanguageKeepingItsMessage() throws {
        try inGerman {
            let bar = NoticeBar(.problem)
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_child(cast(window), bar.widget)
            try Self.show(window)
            bar.show("Etwas anderes.")
            let close = try XCTUnwrap(descendant(of: bar.widget) { isWidget($0, a: gtk_button_get_type()) })
            XCTAssertNil(AccessibilityTests.labelMismatch(close, "Schließen"))
            // A button takes activation once it is on screen, as a person sees it.
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(close) != 0 })
            gtk_widget_activate(close)
            XCTAssertTrue(GtkTestEnvironment.iterate { bar.message == nil }, "dismissed by its button")
            bar.show("Etwas ging schief.", details: "EIO")

            LanguageChoice.speak("fr")
            bar.rebuild()
            XCTAssertEqual(bar.message, "Etwas ging schief.")
            XCTAssertEqual(bar.details, "EIO")
            let rebuilt = try XCTUnwrap(descendant(of: bar.widget) { isWidget($0, a: gtk_button_get_type()) })
            XCTAssertNil(AccessibilityTests.labelMismatch(rebuilt, tr("Dismiss")))
            XCTAssertNotEqual(tr("Dismiss"), "Schließen")
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(rebuilt) != 0 })
            gtk_widget_activate(rebuilt)
            XCTAssertTrue(GtkTestEnvironment.iterate { bar.message == nil }, "dismissed by its button, built again")
        }
    }

    /// Each question in German: its heading, its answers, and the entry named for screen readers.
    func testEachQuestionSpeaksGerman() throws {
        let questions: [(ConfirmDialog.Question, heading: String, confirm: String)] = [
            (.removeFeed, "Feed entfernen?", "_Entfernen"), (.deleteFolder, "Ordner löschen?", "_Löschen"),
            (.removeAccount, "Konto entfernen?", "_Entfernen"),
        ]
        let names: [(NameDialog.Question, heading: String, entry: String, accept: String)] = [
            (.newFolder, "Neuer Ordner", "Ordnername", "_Anlegen"), (.renameFolder, "Ordner umbenennen", "Ordnername", "_Umbenennen"),
            (.renameFeed, "Feed umbenennen", "Feed-Name", "_Umbenennen"), (.editAddress, "Adresse bearbeiten", "Adresse", "_Speichern"),
        ]
        try inGerman {
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            for (question, heading, confirm) in questions {
                let dialog = ConfirmDialog.present(question, over: parent, body: "") {}
                defer { gtk_window_destroy(cast(dialog)) }
                XCTAssertEqual(String(cString: adw_message_dialog_get_heading(cast(dialog))), heading)
                XCTAssertEqual(String(cString: gtk_window_get_title(cast(dialog))), heading)
                XCTAssertEqual(String(cString: adw_message_dialog_get_response_label(cast(dialog), ConfirmDialog.Response.confirm)), confirm)
                XCTAssertEqual(String(cString: adw_message_dialog_get_response_label(cast(dialog), ConfirmDialog.Response.cancel)), "_Abbrechen")
            }
            for (question, heading, entryName, accept) in names {
                let dialog = NameDialog.present(question, over: parent) { _ in }
                defer { gtk_window_destroy(cast(dialog)) }
                XCTAssertEqual(String(cString: adw_message_dialog_get_heading(cast(dialog))), heading)
                XCTAssertEqual(String(cString: adw_message_dialog_get_response_label(cast(dialog), NameDialog.Response.accept)), accept)
                let entry = try XCTUnwrap(descendant(of: dialog) { isWidget($0, a: gtk_entry_get_type()) })
                XCTAssertNil(AccessibilityTests.labelMismatch(entry, entryName), "\(heading)")
                XCTAssertEqual(adw_message_dialog_get_response_enabled(cast(dialog), NameDialog.Response.accept), 0, "nothing typed yet")
            }
        }
    }

    /// Each dialog in English and in Arabic, which lays it out right to left; the renders are
    /// saved to be looked at (docs/testing.md).
    func testEachDialogLaysOutInEnglishAndRightToLeftInArabic() throws {
        try onMain {
            adw_init()
            defer { LanguageChoice.speak(nil) }
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            let folder = FileManager.default.temporaryDirectory.appending(path: UUID().uuidString)
            defer { try? FileManager.default.removeItem(at: folder) }
            let preferences = Preferences(settings: SettingsStore(path: folder.appending(path: "settings.ini").path))
            for language in ["en", "ar"] {
                LanguageChoice.speak(language)
                let sync = AccountSync(engine: SyncEngine(store: try FeedStore.inMemory()))
                let dialogs: [(String, UnsafeMutablePointer<GtkWidget>)] = [
                    ("add-feed", AddFeedDialog(library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }.window),
                    ("add-account", AddAccountDialog(accounts: sync) { _ in }.window),
                    ("preferences", PreferencesWindow(preferences, accounts: { AccountsPage(accounts: sync, window: $0) { _ in } }).window),
                    ("about", AboutWindow.make(metainfo: nil)),
                    ("remove-feed", ConfirmDialog.present(.removeFeed, over: parent, body: "“Plain” and all its entries will be removed.") {}),
                    ("rename-folder", NameDialog.present(.renameFolder, over: parent, text: "Podcasts") { _ in }),
                ]
                for (name, window) in dialogs {
                    defer { gtk_window_destroy(cast(window)) }
                    gtk_window_present(cast(window))
                    XCTAssertEqual(gtk_widget_get_direction(window), language == "ar" ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR, name)
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "part-\(name)-\(language)") }, name)
                }
            }
        }
    }

    /// In Arabic an address's placeholder sat on the right while its text ran from the left, and
    /// then the titles of Add Feed's and Add Account's address rows moved to the left with their
    /// text, apart from the Arabic titles around them, while a feed's Properties ran its address
    /// from the right: every address field (Add Feed, Add Account's server, Edit Address, a feed's
    /// Properties) runs left to right as a whole, its text, caret and placeholder starting at the
    /// left, and an entry row's title stays right to left, at the right, as the rows' around it.
    func testAddressFieldsRunLeftToRightUnderTitlesThatStayRightToLeftInArabic() throws {
        try onMain {
            adw_init()
            LanguageChoice.speak("ar")
            gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
            let styles = adw_style_manager_get_default()
            defer {
                LanguageChoice.speak(nil)
                gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR)
                adw_style_manager_set_color_scheme(styles, ADW_COLOR_SCHEME_DEFAULT)
            }
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            let sync = AccountSync(engine: SyncEngine(store: try FeedStore.inMemory()))
            let library = FeedLibrary(store: try FeedStore.inMemory())
            let store = library.store
            let feed = try FeedPropertiesWindowTests.run { try await store.addFeed(url: URL(string: "https://news.example/feed.xml")!) }
            let windows: [(String, UnsafeMutablePointer<GtkWidget>)] = [
                ("add-feed", AddFeedDialog(library: library) { _ in }.window),
                ("add-account", AddAccountDialog(accounts: sync) { _ in }.window),
                ("edit-address", NameDialog.present(.editAddress, over: parent, text: "") { _ in }),
                ("feed-properties", FeedPropertiesWindow(feed, library: library, defaults: .init(refreshMinutes: 30, keepDays: 90)) {}.window),
            ]
            for (name, window) in windows {
                defer { gtk_window_destroy(cast(window)) }
                gtk_window_present(cast(window))
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 })
                // The field that takes an address, an entry row or an entry.
                let field = try XCTUnwrap(descendant(of: window) { widget in
                    if isWidget(widget, a: adw_entry_row_get_type()) { return adw_entry_row_get_input_purpose(cast(widget)) == GTK_INPUT_PURPOSE_URL }
                    return isWidget(widget, a: gtk_entry_get_type()) && gtk_entry_get_input_purpose(cast(widget)) == GTK_INPUT_PURPOSE_URL
                }, name)
                let isRow = isWidget(field, a: adw_entry_row_get_type())
                gtk_editable_set_text(cast(field), "")
                GtkTestEnvironment.waitForFrames(of: window)
                let text: UnsafeMutablePointer<GtkWidget> = cast(try XCTUnwrap(gtk_editable_get_delegate(cast(field)), name))
                Widgets.forEach(in: text) { part in
                    XCTAssertEqual(gtk_widget_get_direction(part), GTK_TEXT_DIR_LTR, "\(name): the text's \(String(cString: gtk_widget_get_name(part)))")
                }
                // The labels the field shows, with where each starts in it: a row's title, an entry's placeholder.
                var labels: [(text: String, inText: Bool, start: Double, end: Double)] = []
                Widgets.forEach(in: field) { widget in
                    guard isWidget(widget, a: gtk_label_get_type()), gtk_widget_get_mapped(widget) != 0,
                          let layout = gtk_label_get_layout(cast(widget)), let shown = gtk_label_get_text(cast(widget)), strlen(shown) > 0 else { return }
                    var offsetX: Int32 = 0, offsetY: Int32 = 0
                    gtk_label_get_layout_offsets(cast(widget), &offsetX, &offsetY)
                    var logical = PangoRectangle()
                    pango_layout_get_pixel_extents(layout, nil, &logical)
                    var start = graphene_point_t(), end = graphene_point_t()
                    var from = graphene_point_t(x: Float(offsetX + logical.x), y: 0)
                    var to = graphene_point_t(x: Float(offsetX + logical.x + logical.width), y: 0)
                    _ = gtk_widget_compute_point(widget, field, &from, &start)
                    _ = gtk_widget_compute_point(widget, field, &to, &end)
                    labels.append((String(cString: shown), gtk_widget_is_ancestor(widget, text) != 0, Double(start.x), Double(end.x)))
                    if gtk_widget_is_ancestor(widget, text) == 0 {
                        XCTAssertEqual(gtk_widget_get_direction(widget), GTK_TEXT_DIR_RTL, "\(name): the title “\(String(cString: shown))” reads right to left")
                    }
                }
                let width = Double(gtk_widget_get_width(field))
                XCTAssertFalse(labels.isEmpty, "\(name) shows a title or a placeholder")
                if isRow {
                    XCTAssertTrue(labels.contains { !$0.inText }, "\(name): the row's title shows")
                }
                for label in labels {
                    if label.inText {
                        XCTAssertLessThan(label.start, width / 3, "\(name): the placeholder “\(label.text)” starts at the left, where the address does")
                    } else {
                        XCTAssertGreaterThan(label.end, width * 2 / 3, "\(name): the title “\(label.text)” ends at the right, as the titles beside it")
                        XCTAssertGreaterThan(label.start, width / 3, "\(name): the title “\(label.text)” sits at the right")
                    }
                }
                gtk_editable_set_text(cast(field), "https://example.org/feed.xml")
                for dark in [false, true] {
                    adw_style_manager_set_color_scheme(styles, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT)
                    GtkTestEnvironment.waitForFrames(of: window)
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "address-\(name)-ar-\(dark ? "dark" : "light")") }, name)
                }
            }
        }
    }

    /// A `.ui` text is translated with its context, and XML's escapes are read and written back.
    func testBuilderTextsAreTranslatedAndTheirMarksDropped() {
        onMain {
            defer { LanguageChoice.speak(nil) }
            LanguageChoice.speak("de")
            let xml = #"<property name="title" translatable="yes" comments="A note">Add Feed</property><item translatable="yes">Tom &amp; Jerry</item>"#
            XCTAssertEqual(BuilderFile.translated(xml), #"<property name="title">Feed hinzufügen</property><item>Tom &amp; Jerry</item>"#)
            XCTAssertEqual(tr("Add Feed", context: "no such context"), "Add Feed", "a context without a translation keeps the text")

            // The texts on an object's properties and accessible name are kept by its id (given
            // one when it has none), to follow a language switch; a menu's attributes are not.
            let part = #"<object class="GtkButton"><property name="tooltip-text" translatable="yes">Add Feed</property>"#
                + #"<accessibility><property name="label" translatable="yes">Search</property></accessibility></object>"#
                + #"<menu id="m"><item><attribute name="label" translatable="yes">Search</attribute></item></menu>"#
            let translated = BuilderFile.translating(part)
            XCTAssertEqual(translated?.texts.map { "\($0.objectID) \($0.place) \($0.source) → \($0.translation)" },
                           [#"translated-object-1 property("tooltip-text") Add Feed → Feed hinzufügen"#,
                            "translated-object-1 accessibleLabel Search → \(tr("Search"))"])
            XCTAssertTrue(translated?.xml.hasPrefix(#"<object class="GtkButton" id="translated-object-1">"#) ?? false, translated?.xml ?? "")
        }
    }

    /// The window's layout, built alone from its file, shows its texts in the language chosen and,
    /// on the same widgets, in each language switched to after; the texts of widgets gone are forgotten.
    func testTheLayoutsTextsFollowALanguageSwitch() {
        onMain {
            defer {
                LanguageChoice.speak(nil)
                LanguageTexts.showAll()
            }
            let layout = WindowLayout()
            let texts: [(String, () -> String?)] = [
                ("Search all entries", { ObjectProperty.get(layout.searchEntry, "placeholder-text", as: String.self) }),
                ("Show only unread entries", { gtk_widget_get_tooltip_text(layout.unreadButton).map { String(cString: $0) } }),
                ("Main Menu", { gtk_widget_get_tooltip_text(layout.mainMenuButton).map { String(cString: $0) } }),
                ("Feed Reader", { adw_window_title_get_title(layout.sidebarTitle).map { String(cString: $0) } }),
            ]
            for language in ["de", "ar", "ja", nil] {
                LanguageChoice.speak(language)
                LanguageTexts.showAll()
                for (english, shown) in texts {
                    XCTAssertEqual(shown(), tr(english), "\(language ?? "en"): \(english)")
                    if language != nil { XCTAssertNotEqual(shown(), english, "\(language ?? "en"): \(english) is translated") }
                }
            }
            // The layout's widgets go with its top widget; the switch after that forgets their texts.
            g_object_unref(cast(layout.toastOverlay))
            LanguageChoice.speak("fr")
            LanguageTexts.showAll()
        }
    }

    /// The player's speed kept "1.25×" and its menu English after Preferences switched the
    /// language: the button and the menu, opened after each switch, show the speeds as the new
    /// language writes them.
    func testThePlayersSpeedAndItsMenuFollowALanguageSwitch() throws {
        try onMain {
            adw_init()
            defer {
                LanguageChoice.speak(nil)
                LanguageTexts.showAll()
            }
            LanguageChoice.speak(nil)
            // Nothing is requested before Play: the address is never fetched.
            let player = MediaPlayer(enclosure: Enclosure(url: URL(string: "http://127.0.0.1:9/episode.ogg")!, type: "audio/ogg"),
                                     isVideo: false, entryID: 1, title: "Episode", feedTitle: "Shows", positions: MediaPositions(),
                                     speed: 1.25)
            let window = gtk_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_child(cast(window), player.widget)
            gtk_widget_set_visible(player.controls, 1)
            try Self.show(window)
            let cases: [(language: String?, button: String, menu: [String])] = [
                ("de", "1,25×", ["0,75×", "1×", "1,25×", "1,5×", "2×"]),
                ("fr", "1,25×", ["0,75×", "1×", "1,25×", "1,5×", "2×"]),
                (nil, "1.25×", ["0.75×", "1×", "1.25×", "1.5×", "2×"]),
            ]
            for (language, button, menu) in cases {
                LanguageChoice.speak(language)
                LanguageTexts.showAll()
                let name = language ?? "en"
                XCTAssertEqual(String(cString: gtk_menu_button_get_label(cast(player.speedButton))), button, name)
                XCTAssertNil(AccessibilityTests.descriptionMismatch(player.speedButton, button), name)
                gtk_menu_button_popup(cast(player.speedButton))
                let popover = try XCTUnwrap(gtk_menu_button_get_popover(cast(player.speedButton)), name)
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(cast(popover)) != 0 }, "\(name): the menu opens")
                XCTAssertEqual(Self.shownLabels(in: cast(popover)), menu, name)
                gtk_menu_button_popdown(cast(player.speedButton))
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(cast(popover)) == 0 }, "\(name): the menu closes")
            }
        }
    }

    /// The texts of the labels shown under `widget`, in order.
    @MainActor
    private static func shownLabels(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        PreferencesWindowTests.widgets(under: widget, a: gtk_label_get_type())
            .filter { gtk_widget_get_mapped($0) != 0 }
            .compactMap { gtk_label_get_text(cast($0)).map { String(cString: $0) } }
            .filter { !$0.isEmpty }
    }

    /// Shows `window` and waits until it is on screen.
    @MainActor
    private static func show(_ window: UnsafeMutablePointer<GtkWidget>) throws {
        gtk_window_present(cast(window))
        XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 }, "the window shows")
    }

    /// The labels of the buttons under `widget`, in order.
    @MainActor
    private static func buttonLabels(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        PreferencesWindowTests.widgets(under: widget, a: gtk_button_get_type())
            .compactMap { gtk_button_get_label(cast($0)).map { String(cString: $0) } }
    }
}
