import AppSupport
import CAdw
import CGtk
@testable import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Rules in the window: the Rules page of Preferences and the rule editor built alone over a
/// store, and "Mute Entries Like This…" and "Show Hidden Entries" in the reader's window.
final class RulesWindowTests: XCTestCase {
    /// Rows list the rules in their order; the switch, Move Down and Delete change the store and
    /// what the lists show; Undo puts a deleted rule back where it was, hiding again what it hid.
    func testTheRulesPageListsTogglesReordersAndDeletesWithUndo() throws {
        try onMain {
            adw_init()
            let store = try FeedStore.inMemory()
            try Self.awaited {
                try await Self.store(["Football tonight", "Tennis final", "Gardening"], in: store)
                try await store.addRule(Rule(name: "No football", conditions: [RuleCondition(.title, .word, "football")], actions: [.hide]))
                try await store.addRule(Rule(name: "Tennis starred", conditions: [RuleCondition(.title, .contains, "tennis")], actions: [.star]))
            }
            let rules = RuleChanges(store: store)
            nonisolated(unsafe) var changes = 0
            rules.onChange = { changes += 1 }
            let window = adw_preferences_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 640, 640)
            let page = RulesPage(rules: rules, window: window)
            adw_preferences_window_add(cast(window), cast(page.page))
            gtk_window_present(cast(window))
            let titles = { PreferencesWindowTests.rowTitles(in: page.page) }
            XCTAssertTrue(GtkTestEnvironment.iterate { titles() == ["No football", "Tennis starred", "Apply to Existing Entries"] }, "\(titles())")
            let subtitle = String(cString: adw_action_row_get_subtitle(cast(page.rows[0].row)))
            XCTAssertEqual(subtitle, "\u{2068}\u{2068}Title contains the words\u{2069} “\u{2068}football\u{2069}”\u{2069} → \u{2068}Hide\u{2069}")
            XCTAssertEqual(gtk_widget_get_sensitive(page.rows[0].upButton), 0, "the first rule cannot go up")
            XCTAssertEqual(gtk_widget_get_sensitive(page.rows[1].downButton), 0, "the last cannot go down")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "rules-page-en") })

            // Off: the rule hides nothing, so the football entry shows again.
            gtk_widget_activate(page.rows[0].toggle)
            XCTAssertTrue(GtkTestEnvironment.iterate { changes == 1 })
            XCTAssertEqual(try Self.awaited { try await store.rules().map(\.rule.isEnabled) }, [false, true])
            XCTAssertEqual(try Self.awaited { try await store.entryCount() }, 3)
            XCTAssertTrue(GtkTestEnvironment.iterate { page.rows.first.map { gtk_switch_get_active(cast($0.toggle)) == 0 } ?? false })
            // On again: hidden again.
            gtk_widget_activate(page.rows[0].toggle)
            XCTAssertTrue(GtkTestEnvironment.iterate { changes == 2 })
            XCTAssertEqual(try Self.awaited { try await store.entryCount() }, 2)

            // A click on a rule opens it; Save stores its new form in its place.
            gtk_widget_activate(page.rows[1].row)
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Edit Rule") != nil }, "the editor opens on the rule")
            let editor = try XCTUnwrap(toplevel(titled: "Edit Rule"))
            let name = try XCTUnwrap(descendant(of: editor) { isWidget($0, a: adw_entry_row_get_type()) })
            XCTAssertEqual(String(cString: gtk_editable_get_text(cast(name))), "Tennis starred")
            gtk_editable_set_text(cast(name), "Tennis")
            gtk_widget_activate_action_variant(editor, "rule-editor.save", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { titles() == ["No football", "Tennis", "Apply to Existing Entries"] }, "\(titles())")
            XCTAssertNil(toplevel(titled: "Edit Rule"), "the editor closed")

            gtk_widget_grab_focus(page.rows[0].downButton)
            gtk_widget_activate(page.rows[0].downButton)
            XCTAssertTrue(GtkTestEnvironment.iterate { titles().prefix(2) == ["Tennis", "No football"] }, "\(titles())")
            XCTAssertEqual(gtk_root_get_focus(cast(window)), page.rows[1].upButton,
                           "the keyboard stays on the moved rule, on the move button it can still use")
            XCTAssertEqual(try Self.awaited { try await store.rules().map(\.rule.name) }, ["Tennis", "No football"])

            gtk_widget_activate(page.rows[1].deleteButton)
            XCTAssertTrue(GtkTestEnvironment.iterate { titles() == ["Tennis", "Apply to Existing Entries"] }, "\(titles())")
            XCTAssertEqual(try Self.awaited { try await store.entryCount() }, 3, "what the deleted rule hid shows")
            let undo = try XCTUnwrap(Self.button(labelled: "_Undo", in: window), "the toast offers Undo")
            gtk_widget_activate(undo)
            XCTAssertTrue(GtkTestEnvironment.iterate { titles() == ["Tennis", "No football", "Apply to Existing Entries"] }, "\(titles())")
            XCTAssertEqual(try Self.awaited { try await store.entryCount() }, 2, "hidden again")

            // Applied to what is stored: the hidden football entry and the tennis one match.
            XCTAssertNotEqual(gtk_widget_activate_action_variant(page.page, "rules.apply", nil), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.label("The rules matched 2 stored entries", in: window) }, "the toast says what it did")
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_visible(page.applyProgress) == 0 }, "the progress goes once done")
            XCTAssertTrue(try Self.awaited { try await store.entries().first { $0.title == "Tennis final" }?.isStarred ?? false })

            // The + button opens the editor on a new hide rule; saved, it is listed last and hides what it matches.
            XCTAssertNotEqual(gtk_widget_activate_action_variant(page.page, "rules.add", nil), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "New Rule") != nil }, "the editor opens on a new rule")
            let newEditor = try XCTUnwrap(toplevel(titled: "New Rule"))
            let newPattern = try XCTUnwrap(descendant(of: newEditor) { isWidget($0, a: gtk_entry_get_type()) })
            gtk_editable_set_text(cast(newPattern), "gardening")
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.label("Matches 1 stored entry", in: newEditor) })
            gtk_widget_activate_action_variant(newEditor, "rule-editor.save", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { titles().count == 4 && titles()[2] == "Title contains “gardening”" }, "\(titles())")
            XCTAssertEqual(try Self.awaited { try await store.entries().compactMap(\.title) }, ["Tennis final"], "the gardening entry hidden too")
        }
    }

    /// What a rule applied from the window marks read on a synced account is queued for the
    /// server, as a change made by hand is: the same path as a refresh's or a sync's.
    func testApplyingFromTheWindowQueuesASyncedAccountsMarksForItsServer() throws {
        try onMain {
            let store = try FeedStore.inMemory()
            let queued = try Self.awaited { () -> [String] in
                let account = try await store.addAccount(kind: TinyTinyRSSService.kind, server: URL(string: "https://rss.example/")!, user: "ann")
                try await store.applySubscriptions(RemoteSubscriptions(
                    categories: [], feeds: [RemoteFeed(id: "3", url: URL(string: "https://site.example/feed")!, title: "Site", categoryID: nil)]),
                    accountID: account.id)
                let articles = ["1", "2"].map { id in
                    RemoteArticle(id: id, feedID: "3", title: id == "1" ? "Sponsored post" : "News", link: nil, author: nil, published: nil,
                                  updated: nil, content: nil, isRead: false, isStarred: false)
                }
                _ = try await store.storeArticles(articles, accountID: account.id, cursor: nil)
                let rules = RuleChanges(store: store)
                try await rules.add(Rule(name: "Ads", conditions: [RuleCondition(.title, .contains, "sponsored")], actions: [.markRead]))
                _ = try await rules.applyToExisting { _ in }
                return try await store.queuedChanges(accountID: account.id).map { "\($0.action.rawValue) \($0.remoteID ?? "-")" }
            }
            XCTAssertEqual(queued, ["read 1"])
        }
    }

    /// In Arabic the page reads right to left, its rules described in Arabic.
    func testTheRulesPageLaysOutRightToLeftInArabic() throws {
        try onMain {
            adw_init()
            defer { LanguageChoice.speak(nil) }
            LanguageChoice.speak("ar")
            let store = try FeedStore.inMemory()
            try Self.awaited {
                try await store.addRule(Rule(name: "Football", requirement: .any,
                                             conditions: [RuleCondition(.title, .word, "football"), RuleCondition(.author, .is, "Sport desk", isNegated: true)],
                                             actions: [.hide, .markRead]))
            }
            let window = adw_preferences_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            gtk_window_set_default_size(cast(window), 640, 640)
            let page = RulesPage(rules: RuleChanges(store: store), window: window)
            adw_preferences_window_add(cast(window), cast(page.page))
            gtk_window_present(cast(window))
            XCTAssertTrue(GtkTestEnvironment.iterate { page.rows.count == 1 })
            XCTAssertEqual(gtk_widget_get_direction(window), GTK_TEXT_DIR_RTL)
            let subtitle = String(cString: adw_action_row_get_subtitle(cast(page.rows[0].row)))
            XCTAssertTrue(subtitle.contains("أيّ شرط") && subtitle.contains("←"), subtitle)
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(window, name: "rules-page-ar") })
        }
    }

    /// The editor counts the stored entries a rule matches as it changes, and says why an
    /// invalid or runaway regular expression cannot be saved, Save disabled meanwhile.
    func testTheEditorCountsMatchesAndRefusesABadRegularExpression() throws {
        try onMain {
            adw_init()
            defer { LanguageChoice.speak(nil) }
            let store = try FeedStore.inMemory()
            try Self.awaited { try await Self.store(["Football tonight", "Football results", "Tennis final"], in: store) }
            for language in ["en", "ar"] {
                LanguageChoice.speak(language)
                nonisolated(unsafe) var saved: Rule?
                let editor = RuleEditor(Rule(name: "", conditions: [], actions: [.hide]), store: store) { saved = $0 }
                gtk_window_present(cast(editor.window))
                let count = { String(cString: gtk_label_get_text(cast(editor.countLabel))) }
                let message = { gtk_widget_get_visible(editor.messageLabel) != 0 ? String(cString: gtk_label_get_text(cast(editor.messageLabel))) : nil }
                let condition = try XCTUnwrap(editor.conditionRows.first)
                XCTAssertFalse(editor.canSave, "a condition without text cannot be saved")
                XCTAssertNil(message())

                gtk_editable_set_text(cast(condition.pattern), "football")
                XCTAssertTrue(GtkTestEnvironment.iterate { count() == (language == "en" ? "Matches 2 stored entries" : Self.arabicCount(2)) }, count())
                XCTAssertTrue(editor.canSave)
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(editor.window, name: "rule-editor-valid-\(language)") })

                gtk_drop_down_set_selected(cast(condition.comparison), 4)
                gtk_editable_set_text(cast(condition.pattern), "(foot")
                XCTAssertEqual(condition.condition, RuleCondition(.title, .matches, "(foot"))
                XCTAssertEqual(gtk_widget_get_direction(condition.pattern), GTK_TEXT_DIR_LTR, "a regular expression reads left to right")
                XCTAssertFalse(editor.canSave)
                XCTAssertEqual(count(), "", "nothing counted for an invalid expression")
                if language == "en" {
                    XCTAssertEqual(message(), "The regular expression “\u{2068}(foot\u{2069}” is not valid at character \u{2068}6\u{2069}.")
                } else {
                    XCTAssertNotNil(message())
                    XCTAssertFalse(message()?.contains("regular expression") ?? true, "said in Arabic: \(message() ?? "")")
                }
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(editor.window, name: "rule-editor-invalid-\(language)") })

                gtk_editable_set_text(cast(condition.pattern), "(a+)+$")
                XCTAssertFalse(editor.canSave, "a runaway expression is refused")
                if language == "en" { XCTAssertEqual(message(), "The regular expression “\u{2068}(a+)+$\u{2069}” takes too long to match; make it simpler.") }

                gtk_editable_set_text(cast(condition.pattern), "^tennis")
                XCTAssertNil(message())
                XCTAssertTrue(GtkTestEnvironment.iterate { count() == (language == "en" ? "Matches 1 stored entry" : Self.arabicCount(1)) }, count())
                XCTAssertNotEqual(gtk_widget_activate_action_variant(editor.window, "rule-editor.save", nil), 0)
                XCTAssertTrue(GtkTestEnvironment.iterate { saved != nil })
                XCTAssertEqual(saved?.conditions, [RuleCondition(.title, .matches, "^tennis")])
                XCTAssertEqual(saved?.actions, [.hide])
                if language == "en" { XCTAssertEqual(saved?.name, "Title matches the regular expression “^tennis”", "named after its condition, plainly") }
            }
        }
    }

    /// The entry being read stays in the Unread view once read, but muted it leaves the list
    /// and its article closes, as any hidden entry does.
    func testMutingTheEntryBeingReadInTheUnreadViewTakesItOutOfTheList() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let list = app.window.entryList
            let listing = list.listing
            app.window.filterBar.select(.unread)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.listing > listing }, "the Unread view is listed")
            XCTAssertEqual(list.shownTitles.count, 3, "\(list.shownTitles)")
            let id = try XCTUnwrap(list.order.first { list.entries[$0]?.title == "Entry 2" })
            list.select(index: try XCTUnwrap(list.order.firstIndex(of: id)))
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.article.entry?.id == id && list.entries[id]?.isRead == true })

            gtk_widget_activate_action_variant(app.window.window, "win.mute-entry", g_variant_new_int64(gint64(id)))
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "New Rule") != nil }, "the editor opens")
            let editor = try XCTUnwrap(toplevel(titled: "New Rule"))
            XCTAssertTrue(GtkTestEnvironment.iterate { Self.label("Matches 1 stored entry", in: editor) })
            gtk_widget_activate_action_variant(editor, "rule-editor.save", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles == ["Entry 1", "Entry 3"] }, "\(list.shownTitles)")
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.article.entry == nil }, "its article closes")
        }
    }

    /// A label is enough of an action: typed in the editor it is saved with the rule (a name no
    /// label can have is refused, saying why), the Rules page says it, and applying the rules puts
    /// it on the stored entries the rule matches.
    func testTheEditorsLabelIsSavedShownAndApplied() throws {
        try onMain {
            adw_init()
            let store = try FeedStore.inMemory()
            try Self.awaited { try await Self.store(["Football tonight", "Tennis final"], in: store) }
            nonisolated(unsafe) var saved: Rule?
            let editor = RuleEditor(Rule(name: "", conditions: [RuleCondition(.title, .word, "football")], actions: []), store: store) { saved = $0 }
            gtk_window_present(cast(editor.window))
            let message = { gtk_widget_get_visible(editor.messageLabel) != 0 ? String(cString: gtk_label_get_text(cast(editor.messageLabel))) : nil }
            XCTAssertFalse(editor.canSave)
            XCTAssertEqual(message(), "Choose at least one action.")

            gtk_editable_set_text(cast(editor.labelRow), "\u{202E}")
            XCTAssertFalse(editor.canSave, "a label with nothing visible in it is refused")
            XCTAssertNotNil(message())
            XCTAssertNotEqual(message(), "Choose at least one action.")

            gtk_editable_set_text(cast(editor.labelRow), " Sport ")
            XCTAssertTrue(editor.canSave)
            XCTAssertNil(message())
            // The row in view: the page scrolled to its end.
            let scrolled = try XCTUnwrap(descendant(of: editor.window) { isWidget($0, a: gtk_scrolled_window_get_type()) })
            let adjustment = try XCTUnwrap(gtk_scrolled_window_get_vadjustment(cast(scrolled)))
            XCTAssertTrue(GtkTestEnvironment.waitForFrames(of: editor.window))
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(editor.window, name: "rule-editor-label-en") })
            XCTAssertNotEqual(gtk_widget_activate_action_variant(editor.window, "rule-editor.save", nil), 0)
            XCTAssertTrue(GtkTestEnvironment.iterate { saved != nil })
            XCTAssertEqual(saved?.actions, [])
            XCTAssertEqual(saved?.label, " Sport ")

            let rules = RuleChanges(store: store)
            let labelled = try Self.awaited { () -> [String: [String]] in
                try await rules.add(try XCTUnwrap(saved))
                _ = try await rules.applyToExisting { _ in }
                let entries = try await store.entries()
                let names = try await store.labelNames(ofEntries: entries.map(\.id))
                return Dictionary(uniqueKeysWithValues: entries.map { ($0.title ?? "", names[$0.id] ?? []) })
            }
            XCTAssertEqual(labelled, ["Football tonight": ["Sport"], "Tennis final": []])

            let window = adw_preferences_window_new()!
            defer { gtk_window_destroy(cast(window)) }
            let page = RulesPage(rules: rules, window: window)
            adw_preferences_window_add(cast(window), cast(page.page))
            gtk_window_present(cast(window))
            XCTAssertTrue(GtkTestEnvironment.iterate { page.rows.count == 1 })
            let subtitle = String(cString: adw_action_row_get_subtitle(cast(page.rows[0].row)))
            XCTAssertTrue(subtitle.hasSuffix(" → \u{2068}Label “\u{2068}Sport\u{2069}”\u{2069}"), subtitle)
        }
    }

    /// "Mute Entries Like This…" in an entry's menu opens the editor on the entry's title; Save
    /// hides the entry from the list (and its unread count), Undo shows it again; "Show Hidden
    /// Entries" lists it dimmed with its marker, and a search finds it.
    func testMuteEntriesLikeThisHidesTheEntryUndoBringsItBackAndShowHiddenShowsIt() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            // Selecting the entry to open its menu leaves it unread: the counts below are the rule's doing.
            app.window.preferences.markRead = .byHand
            let list = app.window.entryList
            let unread = { () -> String in
                app.window.sidebar.rowWidgets(showing: .all).map { String(cString: gtk_label_get_text(cast($0.count))) } ?? ""
            }
            XCTAssertTrue(GtkTestEnvironment.iterate { unread() == "3" })
            let id = try XCTUnwrap(list.order.first { list.entries[$0]?.title == "Entry 2" })
            list.select(index: try XCTUnwrap(list.order.firstIndex(of: id)))
            list.showMenuForSelection()
            let widgets = try XCTUnwrap(list.rowWidgets(showing: id))
            XCTAssertNil(widgets.hiddenMarker, "no marker is made for an entry no rule hid")
            let popover = try XCTUnwrap(descendant(of: widgets.box) { isWidget($0, a: gtk_popover_menu_get_type()) })
            let items = Self.menuItems(of: popover)
            XCTAssertTrue(items.contains { $0 == ("Mute Entries Like This…", "win.mute-entry") }, "\(items)")
            gtk_popover_popdown(cast(popover))

            let mute = {
                gtk_widget_activate_action_variant(app.window.window, "win.mute-entry", g_variant_new_int64(gint64(id)))
                XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "New Rule") != nil }, "the editor opens")
                let editor = try XCTUnwrap(toplevel(titled: "New Rule"))
                let pattern = try XCTUnwrap(descendant(of: editor) { isWidget($0, a: gtk_entry_get_type()) })
                XCTAssertEqual(String(cString: gtk_editable_get_text(cast(pattern))), "Entry 2", "prefilled from the entry")
                XCTAssertTrue(GtkTestEnvironment.iterate { Self.label("Matches 1 stored entry", in: editor) })
                gtk_widget_activate_action_variant(editor, "rule-editor.save", nil)
                XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles == ["Entry 1", "Entry 3"] }, "\(list.shownTitles)")
                XCTAssertTrue(GtkTestEnvironment.iterate { unread() == "2" }, "hidden entries count as unread nowhere")
                XCTAssertTrue(GtkTestEnvironment.iterate { app.window.notices.toasts.message == "Rule added; 1 entry hidden" },
                              app.window.notices.toasts.message ?? "no toast")
            }
            try mute()
            // Undo: the rule goes and the entry is back.
            let undo = try XCTUnwrap(Self.button(labelled: "_Undo", in: app.window.window), "the toast offers Undo")
            gtk_widget_activate(undo)
            XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles == ["Entry 1", "Entry 2", "Entry 3"] }, "\(list.shownTitles)")
            XCTAssertTrue(GtkTestEnvironment.iterate { unread() == "3" })
            XCTAssertEqual(try Self.awaited { try await app.library.store.rules().count }, 0)

            // Muted again, then shown dimmed, marked, and found by a search while Show Hidden
            // Entries is on; the count stays without it.
            try mute()
            g_action_group_change_action_state(cast(app.window.window), "show-hidden", g_variant_new_boolean(1))
            XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles == ["Entry 1", "Entry 2", "Entry 3"] }, "\(list.shownTitles)")
            XCTAssertTrue(GtkTestEnvironment.iterate {
                guard let row = list.rowWidgets(showing: id), let marker = row.hiddenMarker else { return false }
                return gtk_widget_has_css_class(row.box, "hidden-entry") != 0 && gtk_widget_get_visible(marker) != 0
                    && String(cString: gtk_label_get_text(cast(marker))) == "Hidden by rule"
            })
            XCTAssertEqual(unread(), "2")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "hidden-entries-shown-en") })
            app.window.filterBar.startSearch()
            gtk_editable_set_text(cast(app.window.filterBar.searchEntry), "Entry 2")
            XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles == ["Entry 2"] }, "a search finds it: \(list.shownTitles)")
            app.window.switchLanguage(to: "ar")
            XCTAssertTrue(GtkTestEnvironment.iterate {
                list.rowWidgets(showing: id)?.hiddenMarker.map { String(cString: gtk_label_get_text(cast($0))) != "Hidden by rule" } ?? false
            }, "the marker follows a language switch")
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(app.window.window, name: "hidden-entries-shown-ar") })
            app.window.switchLanguage(to: "")
            gtk_editable_set_text(cast(app.window.filterBar.searchEntry), "")
            g_action_group_change_action_state(cast(app.window.window), "show-hidden", g_variant_new_boolean(0))
            XCTAssertTrue(GtkTestEnvironment.iterate { list.shownTitles == ["Entry 1", "Entry 3"] }, "\(list.shownTitles)")
            XCTAssertEqual(unread(), "2")

            // Preferences shows the Rules page, listing the rule.
            gtk_widget_activate_action_variant(app.window.window, "win.preferences", nil)
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "Preferences").map { gtk_widget_get_mapped($0) != 0 } ?? false })
            let preferences = try XCTUnwrap(toplevel(titled: "Preferences"))
            defer { gtk_window_destroy(cast(preferences)) }
            let pages = PreferencesWindowTests.widgets(under: preferences, a: adw_preferences_page_get_type())
            let rulesPage = try XCTUnwrap(descendant(of: preferences) {
                isWidget($0, a: adw_preferences_page_get_type()) && String(cString: adw_preferences_page_get_title(cast($0))) == "Rules"
            }, "\(pages.count) pages")
            adw_preferences_window_set_visible_page(cast(preferences), cast(rulesPage))
            XCTAssertTrue(GtkTestEnvironment.iterate { PreferencesWindowTests.rowTitles(in: rulesPage).first == "Title contains “Entry 2”" },
                          "\(PreferencesWindowTests.rowTitles(in: rulesPage))")

            // From the feed's menu: the feed is filled in, the words to mute are asked for.
            let feedID = try XCTUnwrap(app.window.model.feeds.first?.id)
            let feedMenu = try XCTUnwrap(app.window.sidebar.menu(for: .feed(feedID)))
            defer { g_object_unref(cast(feedMenu)) }
            let feedItems = MenuContents.allItems(of: feedMenu).map { ($0.label, $0.action ?? "") }
            XCTAssertTrue(feedItems.contains { $0 == ("Mute Entries Like This…", "win.mute-feed") }, "\(feedItems)")
            gtk_widget_activate_action_variant(app.window.window, "win.mute-feed", g_variant_new_int64(gint64(feedID)))
            XCTAssertTrue(GtkTestEnvironment.iterate { toplevel(titled: "New Rule") != nil }, "the editor opens")
            let editor = try XCTUnwrap(toplevel(titled: "New Rule"))
            defer { gtk_window_destroy(cast(editor)) }
            var patterns: [String] = []
            _ = descendant(of: editor) { widget in
                if isWidget(widget, a: gtk_entry_get_type()) { patterns.append(String(cString: gtk_editable_get_text(cast(widget)))) }
                return false
            }
            XCTAssertEqual(patterns, ["Plain", ""])
            let save = try XCTUnwrap(Self.button(labelled: "_Save", in: editor))
            XCTAssertEqual(gtk_widget_get_sensitive(save), 0, "nothing to save until the words are typed")
            XCTAssertTrue(Self.label("Type the text each condition looks for.", in: editor))
        }
    }

    // MARK: - Helpers

    private static func store(_ titles: [String], in store: FeedStore) async throws {
        let feed = try await store.addFeed(url: URL(string: "https://sport.example/rss")!)
        let entries = titles.enumerated().map { Entry(id: "\($0.offset)", title: $0.element) }
        try await store.apply(FetchResult(request: FeedRequest(url: feed.url),
                                          outcome: .fetched(ParsedFeed(format: .rss, feed: Feed(id: "sport", title: "Sport"), entries: entries),
                                                            validators: CacheValidators())),
                              toFeed: feed.id)
    }

    /// What `body` gives, running the main loop until it has.
    @MainActor
    private static func awaited<T>(_ body: @escaping @MainActor () async throws -> T) throws -> T {
        nonisolated(unsafe) var result: Result<T, any Error>?
        Task { @MainActor in
            do { result = .success(try await body()) } catch { result = .failure(error) }
        }
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { result != nil })
        return try XCTUnwrap(result).get()
    }

    /// "Matches N stored entries" as the Arabic catalog says it.
    @MainActor
    private static func arabicCount(_ count: Int) -> String {
        trn("Matches %d stored entry", "Matches %d stored entries", count).filling(count: count)
    }

    @MainActor
    private static func button(labelled label: String, in root: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        descendant(of: root) { isWidget($0, a: gtk_button_get_type()) && gtk_button_get_label(cast($0)).map { String(cString: $0) } == label }
    }

    @MainActor
    private static func label(_ text: String, in root: UnsafeMutablePointer<GtkWidget>) -> Bool {
        descendant(of: root) { isWidget($0, a: gtk_label_get_type()) && String(cString: gtk_label_get_text(cast($0))) == text } != nil
    }

    /// The labels and actions of a popover menu's items.
    @MainActor
    static func menuItems(of popover: UnsafeMutablePointer<GtkWidget>) -> [(String, String)] {
        guard let menu = gtk_popover_menu_get_menu_model(cast(popover)) else { return [] }
        return (0..<g_menu_model_get_n_items(menu)).map { index in
            func attribute(_ name: String) -> String {
                guard let value = g_menu_model_get_item_attribute_value(menu, index, name, nil) else { return "" }
                defer { g_variant_unref(value) }
                return String(cString: g_variant_get_string(value, nil))
            }
            return (attribute("label"), attribute("action"))
        }
    }
}
