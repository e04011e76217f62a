import Foundation
import GRDB
import Testing
@testable import FeedCore

/// Parse warnings are codes with details: `--parse` still prints the English sentences it always
/// has, and the sentences versions before v21 stored are read back into codes, losing nothing.
@Suite struct WarningCodeTests {
    /// Each warning a parser writes, with the English sentence `--parse` printed for it before codes.
    static let sentences: [(ErrorReason, String)] = [
        (ErrorReason(.textBeforeDeclaration), "text before the XML declaration was ignored"),
        (ErrorReason(.bareAmpersand), "a bare '&' was read as text"),
        (ErrorReason(.htmlEntities), "HTML entities, which XML does not define, were read as HTML's"),
        (ErrorReason(.undefinedEntity), "an entity XML does not define was kept as text"),
        (ErrorReason(.doubleHyphenInComment), "a comment contains '--'"),
        (ErrorReason(.unclosedCDATA), "a CDATA section was not closed"),
        (ErrorReason(.doctypeIgnored), "the DOCTYPE was ignored"),
        (ErrorReason(.entityDeclarationsIgnored), "entity declarations in the DOCTYPE were ignored"),
        (ErrorReason(.unknownEncoding, [.encoding: "x-klingon"]), #"unknown character encoding "x-klingon"; read as UTF-8"#),
        (ErrorReason(.undeclaredEncoding, [.encoding: "windows-1251"]), "no character encoding declared; read as windows-1251"),
        (ErrorReason(.notUTF8), "bytes that are not UTF-8 were read as windows-1252"),
        (ErrorReason(.malformedXML, [.line: "12", .column: "3", .technical: "Opening and ending tag mismatch: item (line 4) and channel"]),
         "the document is not well-formed XML: Opening and ending tag mismatch: item (line 4) and channel (line 12, column 3)"),
    ]

    @Test(arguments: sentences)
    func aWarningIsWordedAsBeforeAndReadBack(reason: ErrorReason, sentence: String) {
        #expect(reason.englishWarning == sentence)
        #expect(ErrorReason(legacyWarning: sentence) == reason)
    }

    @Test func everyRepairTheParserMakesHasItsOwnCode() {
        let codes = XMLRepair.Fix.allCases.map(\.reason.code)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { code in Self.sentences.contains { $0.0.code == code } })
    }

    @Test(arguments: [
        "a sentence some other version wrote",
        "unknown character encoding \"x\"; read as latin-1",
        "the document is not well-formed XML: no position",
    ])
    func anUnknownSentenceIsKeptAsTheDetailOfAGenericCode(text: String) {
        let reason = ErrorReason(legacyWarning: text)
        #expect(reason == ErrorReason(.repaired, [.technical: text]))
        #expect(reason.englishWarning == text, "--parse prints it as it was")
    }

    @Test func storedWarningsComeBackWhole() {
        let warnings = [ErrorReason(.bareAmpersand), ErrorReason(.malformedXML, [.line: "2", .column: "5", .technical: "a=b\tc"])]
        let stored = ErrorReason.storedWarnings(warnings)
        #expect(ErrorReason.warnings(stored: stored)
            == [warnings[0], ErrorReason(.malformedXML, [.line: "2", .column: "5", .technical: "a=b c"])])
        #expect(ErrorReason.storedWarnings([]) == nil)
        #expect(ErrorReason.warnings(stored: nil) == [])
    }

    @Test func storedEnglishWarningsBecomeCodesWithNothingLost() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        let unknown = "a sentence no parser of this version writes"
        let feeds: [[String]?] = [Self.sentences.map(\.1), [unknown, "a bare '&' was read as text"], nil]
        do {
            let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
            try FeedStore.migrator.migrate(old, upTo: "v20-feed-settings")
            try await old.write { db in
                for (position, warnings) in feeds.enumerated() {
                    try db.execute(sql: "INSERT INTO feeds (url, position, lastWarnings) VALUES (?, ?, ?)",
                                   arguments: ["https://\(position).example/feed", position, warnings?.joined(separator: "\n")])
                }
            }
        }

        let store = try FeedStore(path: path)

        let warnings = try await store.feeds().sorted { $0.position < $1.position }.map(\.lastWarnings)
        #expect(warnings == [
            Self.sentences.map(\.0),
            [ErrorReason(.repaired, [.technical: unknown]), ErrorReason(.bareAmpersand)],
            [],
        ])
        #expect(warnings.map { $0.map(\.englishWarning) } == feeds.map { $0 ?? [] }, "every sentence can be written again as it was")
    }
}

/// Sync failures share the one list of codes: an account's failure stored before v22 under
/// `SyncError`'s own names is read back under the list's, its detail kept.
@Suite struct SyncCodeMigrationTests {
    static let stored: [(String, ErrorCode)] = [
        ("wrongCredentials", .wrongCredentials), ("apiDisabled", .apiDisabled), ("notThisKindOfServer", .notThisKindOfServer),
        ("tls", .tls), ("unreachable", .unreachable), ("timeout", .timeout), ("badResponse", .badResponse),
        ("serverError", .serverError), ("subscriptionRefused", .subscriptionRefused), ("moved", .moved), ("rateLimited", .rateLimited),
    ]

    @Test func everyOldSyncCodeBecomesItsCodeInTheOneListWithItsDetail() async throws {
        let path = try temporaryDirectory().appendingPathComponent("feeds.sqlite").path
        do {
            let old = try DatabasePool(path: path, configuration: FeedStore.configuration)
            try FeedStore.migrator.migrate(old, upTo: "v21-warning-codes")
            try await old.write { db in
                for (position, (code, _)) in Self.stored.enumerated() {
                    try db.execute(sql: """
                        INSERT INTO accounts (service, server, user, position, lastErrorCode, lastErrorDetail)
                        VALUES ('tt-rss', ?, 'u', ?, ?, ?)
                        """, arguments: ["https://\(position).example/tt-rss/", position, code, "detail \(position)"])
                }
                try db.execute(sql: "INSERT INTO accounts (service, server, user, position) VALUES ('tt-rss', 'https://fine.example/', 'u', 99)")
            }
        }

        let store = try FeedStore(path: path)

        let errors = try await store.accounts().sorted { $0.position < $1.position }.map(\.lastError)
        #expect(errors == Self.stored.enumerated().map { SyncError($0.element.1, "detail \($0.offset)") } + [nil])
    }

    @Test(arguments: [
        (SyncError(.moved, "https://elsewhere.example/"), ErrorReason(.moved, [.url: "https://elsewhere.example/"])),
        (SyncError(.rateLimited, "2026-12-06T10:00:00Z"), ErrorReason(.rateLimited, [.date: "2026-12-06T10:00:00Z"])),
        (SyncError(.badResponse, "HTTP 200 with no JSON"), ErrorReason(.badResponse, [.technical: "HTTP 200 with no JSON"])),
        (SyncError(.timeout), ErrorReason(.timeout)),
    ])
    func aSyncErrorsReasonKeepsItsDetailUnderItsKey(error: SyncError, reason: ErrorReason) {
        #expect(error.reason == reason)
        #expect(ErrorReason(error) == reason)
    }

    @Test(arguments: [
        (SecretStoreError(.keyringLocked, "Cannot prompt"), ErrorReason(.keyringLocked, [.technical: "Cannot prompt"])),
        (SecretStoreError(.keyringUnavailable), ErrorReason(.keyringUnavailable)),
    ])
    func aKeyringErrorsReasonKeepsWhatTheServiceSaidAsItsDetail(error: SecretStoreError, reason: ErrorReason) {
        #expect(ErrorReason(error) == reason)
    }
}
