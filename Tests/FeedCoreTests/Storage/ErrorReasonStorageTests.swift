import Foundation
import GRDB
import Testing
@testable import FeedCore

/// A failed fetch's reason is stored as a code and its values, and the English sentences older
/// versions stored are read back into codes, or kept out of sight when they cannot be.
@Suite struct ErrorReasonStorageTests {
    @Test func aReasonWithAPathAndNewlinesComesBackWhole() async throws {
        let store = try FeedStore.inMemory()
        let feed = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        let reason = ErrorReason(.unreadableFile, [.path: "/home/u/a=b.xml", .technical: "Permission denied\nsecond line"])

        try await store.setError(reason, feedID: feed.id)

        let stored = try #require(try await store.feed(id: feed.id)?.lastError)
        #expect(stored.code == .unreadableFile)
        #expect(stored[.path] == "/home/u/a=b.xml", "only the first = separates the key")
        #expect(stored[.technical] == "Permission denied second line")
    }

    @Test func everyFetchErrorHasItsOwnCode() {
        let errors: [FetchError] = [
            .httpStatus(404), .timedOut(after: .milliseconds(500)), .tooLarge(limit: 1 << 20), .unsupportedEncoding("br"),
            .corruptEncoding("gzip"), .tooManyRedirects(limit: 5), .badRedirect("x"), .redirectToLocalFile("file:///a"), .unsupportedScheme("ftp"), .localFileRefused,
            .fileNotFound(path: "/a"), .unreadableFile(path: "/a", reason: "x"), .notAFile(path: "/a", kind: .directory),
            .network(.cannotFindHost, host: "h"), .network(.cannotConnect, host: "h"), .network(.connectionLost, host: "h"),
            .network(.secureConnectionFailed, host: "h"), .network(.other("x"), host: "h"), .cancelled,
        ]
        #expect(Set(errors.map(\.reason.code)).count == errors.count)
        #expect(FetchError.timedOut(after: .milliseconds(500)).reason[.seconds] == "0.5")
        #expect(FetchError.invalidFeed(.malformedXML(line: 3, column: 7, reason: "x")).reason
            == ErrorReason(.malformedXML, [.line: "3", .column: "7", .technical: "x"]))
    }

    @Test func aDatabaseErrorsReasonNamesNoSQL() {
        let error = DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "UNIQUE constraint failed: feeds.url",
                                  sql: "INSERT INTO feeds (url, position) VALUES (?, ?)")
        let reason = ErrorReason(error)
        #expect(reason.code == .storageFailed)
        #expect(!reason.technicalSummary.contains("INSERT"))
        #expect(reason.technicalSummary.contains("UNIQUE constraint failed"))
    }

    @Test func legacyEnglishReasonsBecomeCodesOrStayOutOfSight() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        let legacy = [
            "Server returned 404 Not Found", "Server returned HTTP status 599", "Timed out after 0.5 s",
            "No such file: /home/u/x.xml", "Could not find the server news.example", "Secure connection to a.example failed",
            "Malformed XML at line 3, column 1: Opening and ending tag mismatch",
        ]
        do {
            let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
            try FeedStore.migrator.migrate(old, upTo: "v11-nested-folders")
            try await old.write { db in
                for (position, text) in legacy.enumerated() {
                    try db.execute(sql: "INSERT INTO feeds (url, position, lastError) VALUES (?, ?, ?)",
                                   arguments: ["https://\(position).example/feed", position, text])
                }
                try db.execute(sql: "INSERT INTO feeds (url, position) VALUES ('https://fine.example/feed', 99)")
            }
        }

        let store = try FeedStore(path: path)

        let reasons = try await store.feeds().sorted { $0.position < $1.position }.map(\.lastError)
        #expect(reasons == [
            ErrorReason(.httpStatus, [.status: "404"]), ErrorReason(.httpStatus, [.status: "599"]),
            ErrorReason(.timedOut, [.seconds: "0.5"]), ErrorReason(.fileNotFound, [.path: "/home/u/x.xml"]),
            ErrorReason(.hostNotFound, [.host: "news.example"]), ErrorReason(.secureConnectionFailed, [.host: "a.example"]),
            ErrorReason(.unrecorded, [.technical: "Malformed XML at line 3, column 1: Opening and ending tag mismatch"]),
            nil,
        ])
    }

    @Test func aCodeFromANewerVersionIsUnrecorded() {
        #expect(ErrorReason(storedCode: "fetch.from-the-future", storedDetails: "status=1").code == .unrecorded)
    }
}
