import CAdw
import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The dialogs a new user meets, in German and in Arabic with the dark style, the language chosen
/// in the running app: each says everything in that language (the app's texts, libadwaita's and
/// GTK's), cuts no label short, and keeps its size. Each saves its renders to look at.
final class NewUserLanguagesTests: XCTestCase {
    /// The languages looked at, German light and Arabic dark.
    private static let languages: [(code: String, dark: Bool)] = [("de", false), ("ar", true)]

    /// Runs `body` once in each of ``languages``, the app speaking it (switched in `window` as
    /// Preferences does, else with no window) and in its style, then returns to the system's.
    @MainActor
    private static func inEachLanguage(of window: MainWindow? = nil, _ body: (_ language: String) throws -> Void) rethrows {
        let switching = { (code: String) in
            if let window { window.switchLanguage(to: code) } else { LanguageChoice.speak(code.isEmpty ? nil : code) }
        }
        let styles = adw_style_manager_get_default()
        defer {
            switching("")
            adw_style_manager_set_color_scheme(styles, ADW_COLOR_SCHEME_DEFAULT)
        }
        for (code, dark) in languages {
            switching(code)
            adw_style_manager_set_color_scheme(styles, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT)
            try body(code)
        }
    }

    /// Add Account's three failures a person makes: an address with no tt-rss behind it, a wrong
    /// password, a server that cannot be reached. Each is said in the language, whole, in the
    /// hint's place, the dialog keeping its size.
    func testAddAccountsFailuresAreSaidWholeInTheLanguageChosen() throws {
        let notTTRSS = try TestHTTPServer { _ in .status(404) }
        defer { notTTRSS.stop() }
        let refusing = try TestHTTPServer { _ in .ok(Data(#"{"seq":0,"status":1,"content":{"error":"LOGIN_ERROR"}}"#.utf8)) }
        defer { refusing.stop() }
        let closed = try TestHTTPServer { _ in .status(404) }
        let unreachable = closed.url("/tt-rss/").absoluteString
        closed.stop()
        let failures = [("wrong-address", notTTRSS.url("/tt-rss/").absoluteString), ("wrong-password", refusing.url("/tt-rss/").absoluteString),
                        ("unreachable", unreachable)]
        try onMain {
            adw_init()
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            try Self.inEachLanguage { language in
                let dialog = AddAccountDialog(accounts: AccountSync(engine: SyncEngine(store: try FeedStore.inMemory()))) { _ in }
                defer { gtk_window_destroy(cast(dialog.window)) }
                gtk_window_set_transient_for(cast(dialog.window), cast(parent))
                let (width, height) = try Self.show(dialog.window)
                Self.assertSpeaks(dialog.window, "\(language), Add Account")
                for (name, address) in failures {
                    let rows = PreferencesWindowTests.widgets(under: dialog.window, a: adw_entry_row_get_type())
                    for (row, text) in zip(rows, [address, "bob", "secret"]) { gtk_editable_set_text(cast(row), text) }
                    gtk_widget_activate_action_variant(dialog.window, "add-account.add", nil)
                    XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 15) {
                        dialog.message.text.hasPrefix(tr("The account could not be added.")) && dialog.canAdd
                    }, "\(language), \(name): \(dialog.message.text)")
                    GtkTestEnvironment.waitForFrames(of: dialog.window)
                    XCTAssertEqual(gtk_widget_get_width(dialog.window), width, "\(language), \(name): the dialog keeps its width")
                    XCTAssertEqual(gtk_widget_get_height(dialog.window), height, "\(language), \(name): the dialog keeps its height")
                    Self.assertSpeaks(dialog.window, "\(language), Add Account, \(name)")
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(dialog.window, name: "new-user-add-account-\(name)-\(language)") })
                }
            }
        }
    }

    /// Add Feed with a malformed address says why Add is disabled, in the language.
    func testAddFeedSaysWhyAMalformedAddressCannotBeAddedInTheLanguageChosen() throws {
        try onMain {
            adw_init()
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            try Self.inEachLanguage { language in
                let dialog = AddFeedDialog.present(over: parent, library: FeedLibrary(store: try FeedStore.inMemory())) { _ in }
                defer { gtk_window_destroy(cast(dialog.window)) }
                let (_, height) = try Self.show(dialog.window)
                let hint = dialog.messageText
                dialog.enter("htp:/bad url")
                XCTAssertEqual(dialog.messageText, tr("An address cannot contain spaces."), language)
                XCTAssertNotEqual(dialog.messageText, hint)
                GtkTestEnvironment.waitForFrames(of: dialog.window)
                XCTAssertEqual(gtk_widget_get_height(dialog.window), height, "\(language): the dialog keeps its height")
                Self.assertSpeaks(dialog.window, "\(language), Add Feed")
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(dialog.window, name: "new-user-add-feed-malformed-\(language)") })
            }
        }
    }

    /// Every page of Preferences, chosen in the app: each row whole and in the language.
    func testEveryPreferencesPageIsWholeInTheLanguageChosen() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            try Self.inEachLanguage(of: app.window) { language in
                g_action_group_activate_action(cast(app.window.window), "preferences", nil)
                var found: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    found = toplevel(titled: tr("Preferences"))
                    return found.map { gtk_widget_get_mapped($0) != 0 } ?? false
                }, "\(language): Preferences open")
                let window = try XCTUnwrap(found)
                defer { gtk_window_destroy(cast(window)) }
                // Tall enough to see a page's rows.
                gtk_window_set_default_size(cast(window), 640, 1000)
                for (index, title) in [tr("General"), tr("Accounts"), tr("Rules")].enumerated() {
                    if index > 0 { try AccountsWindowTests.showPage(title, of: window) }
                    GtkTestEnvironment.waitForFrames(of: window)
                    Self.assertSpeaks(window, "\(language), Preferences › \(title)")
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "new-user-preferences-\(index)-\(language)") })
                }
                try AccountsWindowTests.showPage(tr("General"), of: window)
                let pages = PreferencesWindowTests.widgets(under: window, a: adw_preferences_page_get_type())
                // Each choice a drop-down offers shows whole once chosen (Style and Language left
                // alone: they restyle and retranslate the window).
                let general = try XCTUnwrap(pages.first)
                adw_preferences_window_set_visible_page(cast(window), cast(general))
                let rows = PreferencesWindowTests.widgets(under: general, a: adw_combo_row_get_type()).filter {
                    ![tr("Style"), tr("Language")].contains(String(cString: adw_preferences_row_get_title(cast($0))))
                }
                XCTAssertGreaterThanOrEqual(rows.count, 4, "\(language): the drop-downs")
                for row in rows {
                    let kept = adw_combo_row_get_selected(cast(row))
                    defer { adw_combo_row_set_selected(cast(row), kept) }
                    for (index, choice) in PreferencesWindowTests.choices(row).enumerated() {
                        adw_combo_row_set_selected(cast(row), guint(index))
                        GtkTestEnvironment.waitForFrames(of: window)
                        let cut = PreferencesWindowTests.widgets(under: row, a: gtk_label_get_type()).filter {
                            gtk_widget_get_mapped($0) != 0 && pango_layout_is_ellipsized(gtk_label_get_layout(cast($0))) != 0
                        }
                        XCTAssertTrue(cut.isEmpty, "\(language): “\(choice)” is cut short: \(cut.map { String(cString: gtk_label_get_text(cast($0))) })")
                    }
                }
            }
        }
    }

    /// About, its Credits and its What's New, in the language: libadwaita's texts as well as the
    /// app's, and the release notes of the metainfo as installed (translations merged) in that
    /// language only.
    func testAboutsCreditsAndWhatsNewAreInTheLanguageChosen() throws {
        let installed = try installedMetainfo()
        try onMain {
            adw_init()
            try Self.inEachLanguage { language in
                let notes = try XCTUnwrap(Metainfo.read(installed)?.release?.notes)
                let arabic = notes.contains { ("\u{0600}"..."\u{06FF}").contains($0) }
                XCTAssertEqual(arabic, language == "ar", "\(language): What's New in the language only: \(notes)")
                let pages: [(name: String, title: String?)] = [("main", nil), ("credits", "_Credits"), ("whats-new", "_What’s New")]
                for (name, title) in pages {
                    let about = AboutWindow.make(metainfo: Metainfo.read(installed))
                    defer { gtk_window_destroy(cast(about)) }
                    _ = try Self.show(about)
                    if let title { try Self.openAboutPage(title, of: about, language) }
                    Self.assertSpeaks(about, "\(language), About, \(name)")
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(about, name: "new-user-about-\(name)-\(language)") })
                }
            }
        }
    }

    /// A failing feed's notice over its list at 800 px: what failed, when, Retry and Edit
    /// Address…, in the language, the window keeping its width.
    func testAFailingFeedsNoticeAt800PxIsWholeInTheLanguageChosen() throws {
        let feed = ServedFeed(entries: 3)
        let server = try TestHTTPServer { _ in feed.failing ? .status(500) : .ok(feed.xml) }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.entryList.order.count == 3 })
            let (list, sidebar, notice) = (app.window.entryList, app.window.sidebar, app.window.feedFailure)
            let feedID = try XCTUnwrap(sidebar.feedIDs.first)
            sidebar.select(.feed(feedID))
            XCTAssertTrue(GtkTestEnvironment.iterate { list.source == .feed(feedID) })
            feed.failing = true
            list.header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { notice.message != nil })
            PaneLeafletTests.resize(app, width: 800)
            Self.inEachLanguage(of: app.window) { language in
                XCTAssertTrue(notice.message?.hasPrefix(tr("Last refresh failed: %@").filling(phrase: "")) == true, notice.message ?? "no notice")
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_revealer_get_child_revealed(cast(notice.widget)) != 0 })
                GtkTestEnvironment.waitForFrames(of: app.window.window)
                XCTAssertLessThanOrEqual(abs(gtk_widget_get_width(app.window.window) - 800), 20, "\(language): the notice fits 800 px")
                Self.assertSpeaks(notice.widget, "\(language), the failure notice")
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "new-user-feed-failure-800-\(language)") })
            }
        }
    }

    /// The shortcuts window, opened after the language was chosen.
    func testTheShortcutsWindowIsInTheLanguageChosen() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            try Self.inEachLanguage(of: app.window) { language in
                g_action_group_activate_action(cast(app.window.window), "show-help-overlay", nil)
                var found: UnsafeMutablePointer<GtkWidget>?
                XCTAssertTrue(GtkTestEnvironment.iterate {
                    found = toplevel { isWidget($0, a: gtk_shortcuts_window_get_type()) && gtk_widget_get_mapped($0) != 0 }
                    return found != nil
                }, "\(language): the shortcuts window opens")
                let shortcuts = try XCTUnwrap(found)
                defer { gtk_widget_set_visible(shortcuts, 0) }
                GtkTestEnvironment.waitForFrames(of: shortcuts)
                Self.assertSpeaks(shortcuts, "\(language), the shortcuts")
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(shortcuts, name: "new-user-shortcuts-\(language)") })
            }
        }
    }

    /// Remove Feed's question and Edit Address's entry row (its Apply), libadwaita's message
    /// dialogs, in the language.
    func testMessageDialogsAndTheirEntryRowsAreInTheLanguageChosen() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let window = app.window.window
            let feedID = try XCTUnwrap(app.window.model.feeds.first?.id)
            try Self.inEachLanguage(of: app.window) { language in
                let dialogs = [("remove-feed", "remove-feed", tr("Remove Feed?")), ("edit-address", "edit-feed-address", tr("Edit Address"))]
                for (name, action, title) in dialogs {
                    g_action_group_activate_action(cast(window), action, g_variant_new_int64(gint64(feedID)))
                    let dialog = try XCTUnwrap(MessageDialogTests.appearing(title), "\(language): \(title)")
                    defer { gtk_window_destroy(cast(dialog)) }
                    GtkTestEnvironment.waitForFrames(of: dialog)
                    if let row = PreferencesWindowTests.widgets(under: dialog, a: adw_entry_row_get_type()).first {
                        // Its Apply button shows once the text changes.
                        gtk_editable_set_text(cast(row), "https://example.org/other.xml")
                        GtkTestEnvironment.waitForFrames(of: dialog)
                    }
                    Self.assertSpeaks(dialog, "\(language), \(name)")
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(dialog, name: "new-user-\(name)-\(language)") })
                }
            }
        }
    }

    /// What opens after the language was switched in Preferences speaks it too, whole: About's
    /// Legal page (its app's section was titled "This Application" in Arabic; libadwaita's
    /// sentence under each license, with the license's name) and the file choosers of Import and
    /// Export (their titles, their buttons and GTK's texts in them).
    func testAboutsLegalPageAndTheFileChoosersSpeakTheLanguageSwitchedTo() throws {
        try withReader(serving: plainFeed(entries: 1), entries: 1) { app in
            let window = app.window.window
            try Self.inEachLanguage(of: app.window) { language in
                var found: UnsafeMutablePointer<GtkWidget>?
                do {
                    g_action_group_activate_action(cast(window), "about", nil)
                    XCTAssertTrue(GtkTestEnvironment.iterate {
                        found = toplevel { isWidget($0, a: adw_about_window_get_type()) && gtk_widget_get_mapped($0) != 0 }
                        return found != nil
                    }, "\(language): About opens")
                    let about = try XCTUnwrap(found)
                    defer { gtk_window_destroy(cast(about)) }
                    GtkTestEnvironment.waitForFrames(of: about)
                    XCTAssertNotEqual(AdwaitaTexts.said("_Legal"), "_Legal", "\(language): Legal has a translation")
                    try Self.openAboutPage("_Legal", of: about, language)
                    Self.assertSpeaks(about, "\(language), About, Legal")
                    var sentences: [String] = [], labels: [String] = []
                    Widgets.forEach(in: about) { widget in
                        guard isWidget(widget, a: gtk_label_get_type()), gtk_widget_get_mapped(widget) != 0 else { return }
                        let label = String(cString: gtk_label_get_label(cast(widget)))
                        labels.append(label)
                        if label.contains("href=") { sentences.append(label) }
                    }
                    // The app's own section, which Debian's libadwaita titles in English in Arabic
                    // (no catalog), Italian, Japanese and Chinese (Taiwan) (none of theirs has it).
                    XCTAssertTrue(labels.contains(AdwaitaTexts.said("This Application")) && !labels.contains("This Application"),
                                  "\(language): the app's own section is titled in the language: \(labels)")
                    XCTAssertEqual(sentences.count, 2, "\(language): a sentence under each of the two licenses: \(sentences)")
                    for license in ["The MIT License (MIT)", "Apache License, Version 2.0"] {
                        XCTAssertTrue(sentences.contains { $0.contains(">\(AdwaitaTexts.said(license))<") }, "\(language): \(license) named in the language: \(sentences)")
                    }
                    XCTAssertFalse(sentences.contains { $0.contains("absolutely no warranty") || $0.contains(">The MIT License") }, "\(language): \(sentences)")
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(about, name: "new-user-about-legal-\(language)") })
                }

                let choosers = [("import", "import-subscriptions", tr("Import Subscriptions"), tr("_Import")),
                                ("export", "export-subscriptions", tr("Export Subscriptions"), tr("_Export"))]
                for (name, action, title, accept) in choosers {
                    XCTAssertNotEqual(title, ["import": "Import Subscriptions", "export": "Export Subscriptions"][name], "\(language): \(name) has a translation")
                    g_action_group_activate_action(cast(window), action, nil)
                    XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) {
                        found = toplevel { isWidget($0, a: gtk_file_chooser_dialog_get_type()) && gtk_widget_get_mapped($0) != 0 }
                        return found != nil
                    }, "\(language): \(name)'s file chooser opens")
                    let chooser = try XCTUnwrap(found)
                    GtkTestEnvironment.waitForFrames(of: chooser)
                    XCTAssertEqual(gtk_window_get_title(cast(chooser)).map { String(cString: $0) }, title, "\(language): \(name)'s title")
                    XCTAssertEqual(gtk_widget_get_direction(chooser), language == "ar" ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR, "\(language): \(name)'s direction")
                    var buttons: [String] = []
                    Widgets.forEach(in: chooser) { widget in
                        guard isWidget(widget, a: gtk_button_get_type()), gtk_widget_get_mapped(widget) != 0,
                              let label = gtk_button_get_label(cast(widget)) else { return }
                        buttons.append(String(cString: label))
                    }
                    XCTAssertTrue(buttons.contains(accept) && buttons.contains(tr("_Cancel")), "\(language): \(name)'s buttons: \(buttons)")
                    // GTK's places column keeps GTK's own width (its settings' sidebar-width, 148 px,
                    // which a person drags wider), which GtkFileChooserNative gives the app no way
                    // to change: a name cut there is GTK's, checked for its language only.
                    var places = Set<String>()
                    Widgets.forEach(in: chooser) { widget in
                        guard isWidget(widget, a: gtk_label_get_type()),
                              gtk_widget_get_ancestor(widget, g_type_from_name("GtkPlacesSidebar")) != nil else { return }
                        places.insert(String(cString: gtk_label_get_label(cast(widget))))
                    }
                    XCTAssertFalse(places.isEmpty, "\(language): \(name)'s places column")
                    for problem in Self.problems(in: chooser) where !places.contains { problem == "cut short: \($0)" } {
                        XCTFail("\(language), \(name)'s file chooser: \(problem)")
                    }
                    XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(chooser, name: "new-user-file-chooser-\(name)-\(language)") })
                    gtk_window_close(cast(chooser))
                    XCTAssertTrue(GtkTestEnvironment.iterate {
                        toplevel { isWidget($0, a: gtk_file_chooser_dialog_get_type()) && gtk_widget_get_mapped($0) != 0 } == nil
                    }, "\(language): \(name)'s file chooser closes")
                }
            }
        }
    }

    // MARK: - Helpers

    /// Opens the page of About `about` its row titled `msgid`, in the language spoken, leads to.
    @MainActor
    private static func openAboutPage(_ msgid: String, of about: UnsafeMutablePointer<GtkWidget>, _ language: String) throws {
        let said = AdwaitaTexts.said(msgid)
        let row = try XCTUnwrap(PreferencesWindowTests.widgets(under: about, a: adw_action_row_get_type()).first {
            adw_preferences_row_get_title(cast($0)).map { String(cString: $0) } == said
        }, "\(language): About offers \(said)")
        gtk_widget_activate(row)
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 5) { gtk_widget_get_mapped(row) == 0 }, "\(language): \(said) opened")
        GtkTestEnvironment.waitForFrames(of: about)
    }

    /// Presents `window` and gives its size once it is drawn.
    @MainActor
    private static func show(_ window: UnsafeMutablePointer<GtkWidget>) throws -> (width: Int32, height: Int32) {
        gtk_window_present(cast(window))
        XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(window) != 0 && gtk_widget_get_height(window) > 0 })
        GtkTestEnvironment.waitForFrames(of: window)
        return (gtk_widget_get_width(window), gtk_widget_get_height(window))
    }

    /// Fails for every text `root` shows in English where the language has it (the app's
    /// catalog, libadwaita's or GTK's translates it), and every label cut short by an ellipsis.
    @MainActor
    static func assertSpeaks(_ root: UnsafeMutablePointer<GtkWidget>, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for problem in problems(in: root) { XCTFail("\(what): \(problem)", file: file, line: line) }
    }

    /// What ``assertSpeaks(_:_:file:line:)`` reports.
    @MainActor
    static func problems(in root: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var problems: [String] = []
        var texts: [String] = []
        if isWidget(root, a: gtk_window_get_type()), let title = gtk_window_get_title(cast(root)) { texts.append(String(cString: title)) }
        Widgets.forEach(in: root) { widget in
            // A key cap (GtkShortcutLabel's) is GTK's name of the key, such as Menu, which GTK does not translate.
            guard gtk_widget_get_mapped(widget) != 0, gtk_widget_get_ancestor(widget, gtk_shortcut_label_get_type()) == nil else { return }
            if isWidget(widget, a: gtk_label_get_type()) {
                let label = String(cString: gtk_label_get_label(cast(widget)))
                texts.append(label)
                if let layout = gtk_label_get_layout(cast(widget)), pango_layout_is_ellipsized(layout) != 0 {
                    problems.append("cut short: \(label)")
                }
            }
            if isWidget(widget, a: gtk_text_view_get_type()) {
                // About's release notes: one paragraph or item a line.
                let buffer = gtk_text_view_get_buffer(cast(widget))
                var start = GtkTextIter(), end = GtkTextIter()
                gtk_text_buffer_get_bounds(buffer, &start, &end)
                if let text = gtk_text_buffer_get_text(buffer, &start, &end, 0) {
                    texts += String(cString: text).components(separatedBy: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "•\u{2022} \t")) }
                    g_free(text)
                }
            }
            if let tooltip = gtk_widget_get_tooltip_text(widget) { texts.append(String(cString: tooltip)) }
        }
        for text in Set(texts) where !text.isEmpty && isEnglishWithATranslation(text) { problems.append("in English: \(text)") }
        return problems.sorted()
    }

    /// Whether `text` is an English text that the app's, libadwaita's or GTK's catalog of the
    /// language shown translates.
    @MainActor
    private static func isEnglishWithATranslation(_ text: String) -> Bool {
        // dgettext gives its argument back when it has no translation: read it while it lives.
        let domains: [String] = ["libadwaita", "gtk40"]
        return tr(text) != text || domains.contains { domain in text.withCString { String(cString: dgettext(domain, $0)) } != text }
    }
}
