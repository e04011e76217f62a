import CGtk
@testable import FeedCore
import Foundation
import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Each way adding or syncing an account can fail has its own words in every language the reader
/// speaks, so a person reading German or Japanese still learns which of them it was.
final class SyncMessageLanguageTests: XCTestCase {
    func testEachSyncFailureHasItsOwnTranslatedWordsInEveryLanguage() throws {
        let failures: [SyncFailure] = [ErrorCode.wrongCredentials, .apiDisabled, .notThisKindOfServer, .tls, .unreachable, .timeout, .badResponse,
                                       .serverError, .subscriptionRefused, .moved, .rateLimited].map { .server(SyncError($0)) }
            + [.server(.moved(to: "https://moved.example/tt-rss/")), .server(.rateLimited(until: Date() + 3600))]
            + [ErrorCode.keyringUnavailable, .keyringLocked, .keyringFailed].map { .secrets(SecretStoreError($0)) }
            + [.noPassword, .unsupported, .accountExists, .notFound, .storage(ErrorReason(.diskFull))]
        onMain {
            defer { LanguageChoice.speak(nil) }
            LanguageChoice.speak(nil)
            let english = failures.map { $0.message(for: TinyTinyRSSService.kind) }
            let languages = Self.languages
            XCTAssertEqual(languages.count, 12, "po/feed-reader/LINGUAS lists the 12 languages")
            for language in languages {
                LanguageChoice.speak(language)
                for kind in [TinyTinyRSSService.kind, GoogleReaderService.kind, FeverService.kind] {
                    let words = failures.map { $0.message(for: kind) }
                    XCTAssertEqual(Set(words).count, words.count, "\(language), \(kind.rawValue): two failures share their words: \(words)")
                    for (index, text) in words.enumerated() {
                        XCTAssertNotEqual(text, english[index], "\(language): \(english[index]) is not translated")
                        XCTAssertFalse(text.contains("%@"), "\(language): \(text)")
                    }
                }
                let account = SyncAccount(id: 1, kind: FeverService.kind, server: URL(string: "https://rss.example.org/api/fever.php")!,
                                          user: "bob", position: 0)
                let named = account.syncFailure(.server(SyncError(.wrongCredentials)))
                XCTAssertTrue(named.contains("bob"), "\(language): the account is named: \(named)")
                let moved = SyncFailure.server(.moved(to: "https://moved.example/tt-rss/")).message(for: TinyTinyRSSService.kind)
                XCTAssertTrue(moved.contains("https://moved.example/tt-rss/"), "\(language): the new address is said: \(moved)")
            }
        }
    }

    /// A sync failure the library has words for is said in those words, written once: an account
    /// that exists or is gone as the library says it, and a refused change with why it was refused.
    func testSyncFailuresTheLibraryNamesAreSaidInItsWords() {
        onMain {
            defer { LanguageChoice.speak(nil) }
            for language in [nil, "de", "ja"] {
                LanguageChoice.speak(language)
                let cases: [(SyncFailure, [String])] = [
                    (.accountExists, [ErrorReason(.accountExists).sentence]),
                    (.notFound, [ErrorReason(.accountNotFound).sentence]),
                    (.storage(ErrorReason(.diskFull)), [tr("The feed database could not be changed."), ErrorReason(.diskFull).sentence]),
                    (.storage(ErrorReason(.databaseBusy)), [tr("The feed database could not be changed."), ErrorReason(.databaseBusy).sentence]),
                    (.storage(ErrorReason(.storageFailed)), [tr("The feed database could not be changed.")]),
                ]
                for (failure, sentences) in cases {
                    XCTAssertEqual(failure.message(for: FeverService.kind), sentences.joined(separator: " "), "\(language ?? "en"): \(failure)")
                }
            }
        }
    }

    /// In Arabic the example address in Add Account's help reads whole, left to right: isolated
    /// from the sentence, or the bidi algorithm moves its last slash or its ".php" to the far end.
    func testTheExampleAddressesOfAddAccountReadWholeInArabic() throws {
        try onMain {
            defer { LanguageChoice.speak(nil) }
            LanguageChoice.speak("ar")
            let dialog = AddAccountDialog(accounts: AccountSync(engine: SyncEngine(store: try FeedStore.inMemory()))) { _ in }
            defer { gtk_window_destroy(cast(dialog.window)) }
            let addresses = ["https://example.org/tt-rss/", "https://example.org/api/greader.php", "https://example.org/api/fever.php"]
            XCTAssertEqual(dialog.choices.count, addresses.count)
            for (choice, address) in zip(dialog.choices, addresses) {
                XCTAssertTrue(choice.help.contains("\u{2068}\(address)\u{2069}"), choice.help)
            }
        }
    }

    /// The languages of the reader's catalogs, as po/feed-reader/LINGUAS lists them.
    static let languages: [String] = {
        let linguas = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../../po/feed-reader/LINGUAS").standardized
        return (try? String(contentsOf: linguas, encoding: .utf8))?
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") } ?? []
    }()
}
