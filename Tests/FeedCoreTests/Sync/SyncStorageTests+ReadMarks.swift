import Foundation
import GRDB
import Testing
@testable import FeedCore

extension SyncStorageTests {
    /// Marking a batch read (scrolling, Mark Above/Below) changes only the unread entries, says
    /// which, and queues each synced one for its server, as marking one by hand does; its Undo
    /// queues them unread again.
    @Test func aBatchMarkedReadQueuesOnlyWhatChangedAndItsUndoQueuesThemUnread() async throws {
        let (store, account, _) = try await store(count: 4)
        let ids = try await ["1", "2", "3"].asyncMap { try await entryID($0, in: store) }
        try await store.markRead(entryID: ids[1])
        try await store.removeQueuedChanges(ids: try await store.queuedChanges(accountID: account.id).map(\.id))

        let changed = try await store.markRead(entryIDs: ids)

        #expect(Set(changed) == [ids[0], ids[2]], "the one read already is not counted for the undo")
        #expect(try await queue(store, account).sorted() == ["read 1", "read 3"])
        #expect(try await store.entryCount(unreadOnly: true) == 1)
        try await store.setRead(false, entryIDs: changed)
        #expect(try await queue(store, account).sorted() == ["unread 1", "unread 3"], "the undo replaces what was queued")
        #expect(try await store.entryCount(unreadOnly: true) == 3)
    }

    /// A synced feed's rows come back whole too when restored, queued changes aside: the copy is
    /// taken along the schema's cascades, whatever tables hang on the feed.
    @Test func aRemovedFeedIsRestoredWithEveryRowItsRemovalDeleted() async throws {
        let (store, _, feedID) = try await store(count: 3)
        let starred = try await entryID("2", in: store)
        try await store.setStarred(entryID: starred)
        let before = try await store.entries(EntryQuery(limit: 100)).map { "\($0.id) \($0.entryID) \($0.isRead) \($0.isStarred)" }

        let removed = try await store.removeFeedKeepingCopy(id: feedID)
        #expect(try await store.entryCount() == 0)
        try await store.restore(removed)

        #expect(try await store.entries(EntryQuery(limit: 100)).map { "\($0.id) \($0.entryID) \($0.isRead) \($0.isStarred)" } == before)
        #expect(try await store.search("text").count == 3, "found by search again")
    }
}

private extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
