@testable import AppSupport
import Foundation
import Synchronization
import XCTest
@testable import RefreshGtk

/// The library reads compiled catalogs itself once a language is chosen, so switching never
/// touches the environment other threads read.
final class MessageCatalogTests: XCTestCase {
    override func tearDown() {
        onMain { RefreshLocalization.setLanguage(nil) }
        super.tearDown()
    }

    /// Plural-Forms rules of shipped languages and the form each count takes, as gettext's manual
    /// gives them.
    func testPluralRulesPickTheFormGettextWould() throws {
        let cases: [(language: String, header: String, forms: [Int: Int])] = [
            ("de", "nplurals=2; plural=(n != 1);", [0: 1, 1: 0, 2: 1, 21: 1]),
            ("fr", "nplurals=2; plural=(n > 1);", [0: 0, 1: 0, 2: 1, 100: 1]),
            ("ja", "nplurals=1; plural=0;", [0: 0, 1: 0, 7: 0]),
            ("ru", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
             [1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 21: 0, 22: 1, 111: 2, 112: 2]),
            ("ar", "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;",
             [0: 0, 1: 1, 2: 2, 3: 3, 10: 3, 11: 4, 99: 4, 100: 5, 102: 5, 103: 3]),
        ]
        for (language, header, forms) in cases {
            let rule = try XCTUnwrap(PluralRule(header: "Plural-Forms: \(header)"), language)
            for (count, form) in forms.sorted(by: { $0.key < $1.key }) {
                XCTAssertEqual(rule.form(for: count), form, "\(language), n = \(count)")
            }
        }
    }

    func testARuleThatIsNotAnExpressionIsRefused() {
        for header in ["Plural-Forms: nplurals=2; plural=(n != 1;", "Plural-Forms: nplurals=2; plural=n ? 1;",
                       "Plural-Forms: nplurals=2;"] {
            XCTAssertNil(PluralRule(header: header), header)
        }
    }

    func testEveryShippedCatalogReadsAndAFileThatIsNotOneIsRefused() throws {
        let directory = LocaleDirectory.find()
        let (domain, languages) = onMain { (RefreshLocalization.domain, RefreshLocalization.availableLanguages) }
        XCTAssertGreaterThanOrEqual(languages.count, 12)
        for language in languages {
            let path = "\(directory)/\(language)/LC_MESSAGES/\(domain).mo"
            XCTAssertNotNil(MessageCatalog(path: path), path)
        }
        let notACatalog = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-catalog-\(UUID()).mo")
        try Data("# a po file, not compiled\nmsgid \"x\"\nmsgstr \"y\"\n".utf8).write(to: notACatalog)
        defer { try? FileManager.default.removeItem(at: notACatalog) }
        XCTAssertNil(MessageCatalog(path: notACatalog.path))
        XCTAssertNil(MessageCatalog(path: "/nonexistent/refreshgtk.mo"))
    }

    func testSwitchingLanguageLeavesTheEnvironmentAlone() {
        onMain {
            let before = ProcessInfo.processInfo.environment["LANGUAGE"]
            RefreshLocalization.setLanguage("de")
            XCTAssertEqual(RefreshLocalization.text(.headerIdle), "Zum Aktualisieren nach unten ziehen")
            XCTAssertEqual(ProcessInfo.processInfo.environment["LANGUAGE"], before)
            RefreshLocalization.setLanguage(nil)
            XCTAssertEqual(RefreshLocalization.text(.headerIdle), "Pull down to refresh")
            XCTAssertEqual(ProcessInfo.processInfo.environment["LANGUAGE"], before)
        }
    }

    func testPluralsFollowTheChosenLanguagesRule() {
        onMain {
            // The reader's catalogs sit beside the library's and have plural entries.
            let domain = GettextDomain("feed-reader")
            defer { ChosenLanguage.set(nil) }
            ChosenLanguage.set(["ru"])
            XCTAssertEqual([1, 2, 5, 11, 21, 22].map { domain.plural("%d unread entry", "%d unread entries", count: $0) },
                           ["%d непрочитанная запись", "%d непрочитанные записи", "%d непрочитанных записей",
                            "%d непрочитанных записей", "%d непрочитанная запись", "%d непрочитанные записи"])
            ChosenLanguage.set(["en"])
            XCTAssertEqual([1, 2].map { domain.plural("%d unread entry", "%d unread entries", count: $0) },
                           ["%d unread entry", "%d unread entries"])
        }
    }

    /// Lookups come from any thread while the main thread switches language.
    func testLookupsFromOtherThreadsWhileTheLanguageChanges() {
        let domain = onMain { RefreshLocalization.libraryDomain }
        let msgid = "Pull down to refresh"
        let known: Set = [msgid, "Zum Aktualisieren nach unten ziehen", "Потяните вниз, чтобы обновить"]
        let done = DispatchSemaphore(value: 0)
        let unexpected = Mutex<[String]>([])
        DispatchQueue.global().async {
            for _ in 0..<2000 {
                let text = domain.string(msgid)
                if !known.contains(text) { unexpected.withLock { $0.append(text) } }
            }
            done.signal()
        }
        onMain {
            for language in Array(repeating: ["de", "ru", "en"], count: 100).joined() {
                RefreshLocalization.setLanguage(language)
            }
        }
        done.wait()
        XCTAssertEqual(unexpected.withLock { $0 }, [])
    }
}
