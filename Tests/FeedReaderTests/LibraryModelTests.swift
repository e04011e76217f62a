import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The model without a window: GObject types defined from Swift, and the sidebar's items in
/// their list models, updated in place from the store.
final class LibraryModelTests: XCTestCase {
    /// A type with one property of each kind, registered once for the process.
    private static let probe = ObjectType(name: "FeedReaderTestProbe", properties: [
        .init("text", .string), .init("count", .int), .init("big", .int64), .init("flag", .boolean),
        .init("list", .object(g_list_store_get_type())),
    ])

    func testPropertiesKeepWhatIsSetAndNotifyOnlyOnAChange() {
        onMain {
            let object = Self.probe.make()
            defer { g_object_unref(object) }
            var notices: [String: Int] = [:]
            for name in ["text", "count", "big", "flag"] {
                Signal.connectIgnoringArgument(object, "notify::\(name)") { notices[name, default: 0] += 1 }
            }
            let cases: [(name: String, set: () -> Void, read: () -> String, expected: String)] = [
                ("text", { ObjectProperty.set(object, "text", "Café ‹news›") }, { ObjectProperty.get(object, "text", as: String.self) }, "Café ‹news›"),
                ("count", { ObjectProperty.set(object, "count", Int32(-7)) }, { "\(ObjectProperty.get(object, "count", as: Int32.self))" }, "-7"),
                ("big", { ObjectProperty.set(object, "big", Int64.max) }, { "\(ObjectProperty.get(object, "big", as: Int64.self))" }, "\(Int64.max)"),
                ("flag", { ObjectProperty.set(object, "flag", true) }, { "\(ObjectProperty.get(object, "flag", as: Bool.self))" }, "true"),
            ]
            for test in cases {
                test.set()
                XCTAssertEqual(test.read(), test.expected, test.name)
                XCTAssertEqual(notices[test.name], 1, "\(test.name): one notice for a change")
                test.set()
                XCTAssertEqual(notices[test.name], 1, "\(test.name): none for the same value again")
            }
        }
    }

    func testDefaultsBindingsAndTheValuesGoWithTheObject() {
        onMain {
            let source = Self.probe.make()
            let target = Self.probe.make()
            defer { g_object_unref(target) }
            XCTAssertEqual(ObjectProperty.get(source, "text", as: String.self), "", "a string starts empty")
            XCTAssertEqual(ObjectProperty.get(source, "count", as: Int32.self), 0)
            XCTAssertNil(ObjectProperty.object(source, "list"))

            let bindings = PropertyBindings()
            bindings.keep(g_object_bind_property(source, "text", target, "text", G_BINDING_SYNC_CREATE))
            bindings.keep(g_object_bind_property_full(source, "count", target, "flag", G_BINDING_SYNC_CREATE, BindingTransform.isPositive, nil, nil, nil))
            ObjectProperty.set(source, "text", "Linux")
            ObjectProperty.set(source, "count", Int32(3))
            XCTAssertEqual(ObjectProperty.get(target, "text", as: String.self), "Linux", "a binding follows the source")
            XCTAssertTrue(ObjectProperty.get(target, "flag", as: Bool.self), "through a transform")

            bindings.unbindAll()
            ObjectProperty.set(source, "text", "World")
            XCTAssertEqual(ObjectProperty.get(target, "text", as: String.self), "Linux", "unbound: it no longer follows")

            // What each transform makes of its source, on the widget property a row binds.
            let label = g_object_ref_sink(cast(gtk_label_new("")))!
            defer { g_object_unref(label) }
            let cases: [(String, String, GBindingTransformFunc, () -> Void, () -> String)] = [
                ("count", "label", BindingTransform.countOrNothing, { ObjectProperty.set(source, "count", Int32(0)) },
                 { ObjectProperty.get(label, "label", as: String.self) }),
                ("count", "label", BindingTransform.countOrNothing, { ObjectProperty.set(source, "count", Int32(12)) },
                 { ObjectProperty.get(label, "label", as: String.self) }),
                ("text", "tooltip-text", BindingTransform.noneWhenEmpty, { ObjectProperty.set(source, "text", "") },
                 { gtk_widget_get_tooltip_text(cast(label)).map { String(cString: $0) } ?? "none" }),
                ("text", "tooltip-text", BindingTransform.noneWhenEmpty, { ObjectProperty.set(source, "text", "Broken") },
                 { gtk_widget_get_tooltip_text(cast(label)).map { String(cString: $0) } ?? "none" }),
                ("flag", "css-classes", BindingTransform.entryTitleClasses, { ObjectProperty.set(source, "flag", false) },
                 { gtk_widget_has_css_class(cast(label), "unread") != 0 ? "unread" : "read" }),
                ("flag", "css-classes", BindingTransform.entryTitleClasses, { ObjectProperty.set(source, "flag", true) },
                 { gtk_widget_has_css_class(cast(label), "unread") != 0 ? "unread" : "read" }),
            ]
            let expected = ["", "12", "none", "Broken", "unread", "read"]
            for ((property, widgetProperty, transform, change, shown), expected) in zip(cases, expected) {
                let row = PropertyBindings()
                row.keep(g_object_bind_property_full(source, property, label, widgetProperty, G_BINDING_SYNC_CREATE, transform, nil, nil, nil))
                change()
                XCTAssertEqual(shown(), expected, "\(property) → \(widgetProperty)")
                row.unbindAll()
            }

            // An object held in a property is released with its holder.
            let list = g_list_store_new(SidebarItem.type.gtype)!
            nonisolated(unsafe) var listAddress: gpointer? = UnsafeMutableRawPointer(list)
            g_object_add_weak_pointer(cast(list), &listAddress)
            ObjectProperty.setObject(source, "list", UnsafeMutableRawPointer(list))
            g_object_unref(cast(list))
            XCTAssertNotNil(listAddress, "the property holds the list")
            g_object_unref(source)
            XCTAssertNil(listAddress, "finalizing the holder released it")
        }
    }

    func testTheSidebarItemsFollowTheStoreInPlace() throws {
        let folder = temporaryDirectory()
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            let model = LibraryModel(store: store)
            nonisolated(unsafe) var failure: (any Error)?
            model.onFailure = { failure = $0 }
            @MainActor func run(_ body: @escaping @MainActor () async throws -> Void) {
                if let error = Self.runToEnd(body) { failure = error }
            }
            @MainActor func rows(_ list: OpaquePointer) -> [SidebarItem] {
                (0..<g_list_model_get_n_items(cast(list))).compactMap { SidebarItem.at($0, in: list) }
            }
            var ids: [Int64] = []
            var folderID: Int64 = 0
            run {
                ids = try await store.addSubscriptions((1...2).map { OPMLDocument.Subscription(url: URL(string: "https://feed\($0).example/rss")!) })
                    .added.map(\.id)
                folderID = try await store.createFolder(named: "Tech")
                try await store.moveFeed(ids[1], toFolder: folderID)
                try await store.renameFeed(ids[0], to: "Planet GNOME")
                await model.changed(.feeds)
            }
            XCTAssertNil(failure)
            let top = rows(model.sidebarRoot)
            XCTAssertEqual(top.map(\.selection), [.all, .starred, .feed(ids[0]), .folder(folderID)])
            XCTAssertEqual(top.map(\.title), ["All Feeds", "Starred", "Planet GNOME", "Tech"])
            XCTAssertEqual(top.map(\.iconName), ["view-list-symbolic", "starred-symbolic", "application-rss+xml-symbolic", "folder-symbolic"])
            XCTAssertNil(top[2].children, "a feed holds no rows")
            let inside = try XCTUnwrap(top[3].children, "a folder holds its rows")
            XCTAssertEqual(rows(inside).map(\.selection), [.feed(ids[1])])
            XCTAssertEqual(rows(inside).map(\.title), ["feed2.example"], "an untitled feed is named by its host")

            // A rename changes the item's title in place: the rows stay, the one property notifies.
            let renamed = top[2]
            var titleNotices = 0
            Signal.connectIgnoringArgument(renamed.object, "notify::title") { titleNotices += 1 }
            var unreadNotices = 0
            Signal.connectIgnoringArgument(renamed.object, "notify::unread-count") { unreadNotices += 1 }
            run {
                try await store.renameFeed(ids[0], to: "GNOME")
                await model.changed(.feeds)
            }
            let after = rows(model.sidebarRoot)
            XCTAssertEqual(after.map(\.object), top.map(\.object), "the same items, none replaced")
            XCTAssertEqual(renamed.title, "GNOME")
            XCTAssertEqual(renamed.accessibleName, "GNOME, 0 unread")
            XCTAssertEqual(titleNotices, 1, "the title notified once")
            XCTAssertEqual(unreadNotices, 0, "the unchanged count did not")

            // A feed added is one item spliced in; one removed leaves the others as they were.
            run {
                ids.append(try await store.addFeed(url: URL(string: "https://feed3.example/rss")!).id)
                await model.changed(.feeds)
            }
            let added = rows(model.sidebarRoot)
            XCTAssertEqual(added.map(\.selection), [.all, .starred, .feed(ids[0]), .feed(ids[2]), .folder(folderID)])
            XCTAssertEqual(added[4].object, top[3].object, "the folder's item stays")
            run {
                try await store.removeFeed(id: ids[1])
                await model.changed(.feeds)
            }
            XCTAssertEqual(rows(inside).count, 0, "the folder's list lost its feed")
            XCTAssertNil(model.item(.feed(ids[1])), "the model let go of its item")
            XCTAssertEqual(model.title(of: .folder(folderID)), "Tech")
        }
    }

    /// A mark read or unread, a star, reaches every row counting the entry (its feed, its folder,
    /// All Feeds, Starred, a saved search, a label) and only those: the same items, the count
    /// and the words a screen reader says changed, no other row notified.
    func testMarksChangeOnlyTheCountsOfTheRowsCountingTheEntry() throws {
        let folder = temporaryDirectory()
        try onMain {
            let store = try FeedStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            let model = LibraryModel(store: store)
            nonisolated(unsafe) var failure: (any Error)?
            model.onFailure = { failure = $0 }
            @MainActor func run(_ body: @escaping @MainActor () async throws -> Void) {
                if let error = Self.runToEnd(body) { failure = error }
            }
            var feeds: [Int64] = [], entries: [String: Int64] = [:]
            var (folderID, searchID, labelID): (Int64, Int64, Int64) = (0, 0, 0)
            run {
                for (address, titles) in [("http://127.0.0.1:9/planet", ["Alpha", "Beta"]), ("http://127.0.0.1:9/tech", ["Gamma"])] {
                    let feed = try await store.addFeed(url: URL(string: address)!)
                    let parsed = ParsedFeed(format: .rss, feed: Feed(id: address, title: address),
                                            entries: titles.map { Entry(id: $0, title: $0, published: Date(timeIntervalSince1970: 1_700_000_000)) })
                    try await store.apply(FetchResult(request: FeedRequest(url: feed.url), outcome: .fetched(parsed, validators: CacheValidators())),
                                          toFeed: feed.id)
                    feeds.append(feed.id)
                }
                folderID = try await store.createFolder(named: "Tech")
                try await store.moveFeed(feeds[1], toFolder: folderID)
                for entry in try await store.entries() { entries[entry.title ?? ""] = entry.id }
                searchID = try await store.saveSearch(named: "Gamma", query: "Gamma").id
                try await store.setLabel("Later", on: [entries["Alpha"]!])
                labelID = try await store.labels()[0].id
                try await store.setStarred(entryID: entries["Beta"]!)
                await model.changed(.feeds)
            }
            XCTAssertNil(failure)
            let ids = entries
            let rows: [FeedSelection] = [.all, .starred, .feed(feeds[0]), .folder(folderID), .feed(feeds[1]), .savedSearch(searchID), .label(labelID)]
            let items = rows.map { model.item($0) }
            XCTAssertFalse(items.contains { $0 == nil }, "every row has its item")
            var notices: [FeedSelection: Int] = [:]
            for (row, item) in zip(rows, items.compactMap { $0 }) {
                Signal.connectIgnoringArgument(item.object, "notify::unread-count") { notices[row, default: 0] += 1 }
                Signal.connectIgnoringArgument(item.object, "notify::title") { XCTFail("\(row): a mark renamed its row") }
            }
            XCTAssertEqual(items.map { $0?.unreadCount }, [3, 1, 2, 1, 1, 1, 1], "as the store counts before any mark")

            let cases: [(mark: String, change: @MainActor () async throws -> Void, counts: [Int], notified: [FeedSelection])] = [
                ("Gamma read", { try await store.markRead(entryID: ids["Gamma"]!) }, [2, 1, 2, 0, 0, 0, 1],
                 [.all, .folder(folderID), .feed(feeds[1]), .savedSearch(searchID)]),
                ("Alpha read", { _ = try await store.markRead(entryIDs: [ids["Alpha"]!]) }, [1, 1, 1, 0, 0, 0, 0],
                 [.all, .feed(feeds[0]), .label(labelID)]),
                ("Beta read", { try await store.markRead(entryID: ids["Beta"]!) }, [0, 0, 0, 0, 0, 0, 0],
                 [.all, .starred, .feed(feeds[0])]),
                ("Gamma unread", { try await store.markRead(entryID: ids["Gamma"]!, isRead: false) }, [1, 0, 0, 1, 1, 1, 0],
                 [.all, .folder(folderID), .feed(feeds[1]), .savedSearch(searchID)]),
            ]
            for test in cases {
                notices = [:]
                run {
                    try await test.change()
                    await model.unreadCountsChanged()
                }
                XCTAssertNil(failure, test.mark)
                XCTAssertEqual(rows.map { model.item($0)?.object }, items.map { $0?.object }, "\(test.mark): the same items")
                XCTAssertEqual(items.map { $0?.unreadCount }, test.counts, test.mark)
                XCTAssertEqual(Set(notices.keys), Set(test.notified), "\(test.mark): only the rows whose count changed notified")
                XCTAssertEqual(notices.values.max(), 1, "\(test.mark): once each")
                for (item, count) in zip(items.compactMap { $0 }, test.counts) {
                    XCTAssertEqual(item.accessibleName, "\(item.title), \(count) unread", test.mark)
                    XCTAssertEqual(item.accessibleDescription, count == 1 ? "1 unread entry" : "\(count) unread entries", test.mark)
                }
            }
            // The counts path leaves the model's own copies as the full read has them.
            let afterMarks = model.unreadCountsByRow
            run { await model.changed(.counts) }
            XCTAssertEqual(model.unreadCountsByRow, afterMarks, "a full read finds the counts the marks left")
        }
    }

    /// Runs `body` to its end while the main loop turns, giving back the error it threw.
    @MainActor
    private static func runToEnd(_ body: @escaping @MainActor () async throws -> Void) -> (any Error)? {
        nonisolated(unsafe) var outcome: Result<Void, any Error>?
        Task { @MainActor in
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        }
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) { outcome != nil })
        if case let .failure(error) = outcome { return error }
        return nil
    }
}
