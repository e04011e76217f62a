import AppSupport
import CGtk
import Foundation
import RefreshCore
import XCTest
@testable import RefreshGtk

/// What the header must show in one shipped language. Written out here, not read from the
/// catalogs, so that a missing, stale or wrong catalog fails.
struct ShippedLanguage {
    let code: String
    let idle: String
    let pulling: String
    let refreshing: String
    /// The last-updated line: never, today at 09:07, 5 February this year at 09:07, and
    /// 23 November 2023 at 16:45, seen on 5 March 2024 at 18:00 UTC.
    let never: String
    let today: String
    let thisYear: String
    let older: String
    var isRightToLeft = false
}

/// Every shipped language: the tests fail if this table and po/refreshgtk/LINGUAS disagree.
let shippedLanguages: [ShippedLanguage] = [
    ShippedLanguage(code: "ar", idle: "اسحب للأسفل للتحديث", pulling: "أفلِت للتحديث", refreshing: "جارٍ التحميل…",
                    never: "آخر تحديث: لم يحدث بعد", today: "آخر تحديث: اليوم 09:07",
                    thisYear: "آخر تحديث: 05/02 09:07", older: "آخر تحديث: 23/11/2023 16:45", isRightToLeft: true),
    ShippedLanguage(code: "de", idle: "Zum Aktualisieren nach unten ziehen", pulling: "Zum Aktualisieren loslassen",
                    refreshing: "Wird geladen …", never: "Zuletzt aktualisiert: nie",
                    today: "Zuletzt aktualisiert: heute 09:07", thisYear: "Zuletzt aktualisiert: 05.02. 09:07",
                    older: "Zuletzt aktualisiert: 23.11.2023 16:45"),
    ShippedLanguage(code: "es", idle: "Deslice hacia abajo para actualizar", pulling: "Suelte para actualizar",
                    refreshing: "Cargando…", never: "Última actualización: nunca",
                    today: "Última actualización: hoy a las 09:07", thisYear: "Última actualización: 05/02 09:07",
                    older: "Última actualización: 23/11/2023 16:45"),
    ShippedLanguage(code: "fr", idle: "Tirez vers le bas pour actualiser", pulling: "Relâchez pour actualiser",
                    refreshing: "Chargement…", never: "Dernière mise à jour\u{00A0}: jamais",
                    today: "Dernière mise à jour\u{00A0}: aujourd’hui à 09:07",
                    thisYear: "Dernière mise à jour\u{00A0}: 05/02 09:07",
                    older: "Dernière mise à jour\u{00A0}: 23/11/2023 16:45"),
    ShippedLanguage(code: "it", idle: "Trascina verso il basso per aggiornare", pulling: "Rilascia per aggiornare",
                    refreshing: "Caricamento…", never: "Ultimo aggiornamento: mai",
                    today: "Ultimo aggiornamento: oggi alle 09:07", thisYear: "Ultimo aggiornamento: 05/02 09:07",
                    older: "Ultimo aggiornamento: 23/11/2023 16:45"),
    ShippedLanguage(code: "ja", idle: "下に引いて更新", pulling: "離して更新", refreshing: "読み込み中…",
                    never: "最終更新: なし", today: "最終更新: 今日 09:07",
                    thisYear: "最終更新: 2月5日 09:07", older: "最終更新: 2023年11月23日 16:45"),
    ShippedLanguage(code: "ko", idle: "아래로 당겨서 새로 고침", pulling: "놓으면 새로 고침", refreshing: "불러오는 중…",
                    never: "마지막 업데이트: 없음", today: "마지막 업데이트: 오늘 09:07",
                    thisYear: "마지막 업데이트: 2월 5일 09:07", older: "마지막 업데이트: 2023년 11월 23일 16:45"),
    ShippedLanguage(code: "pt_BR", idle: "Puxe para baixo para atualizar", pulling: "Solte para atualizar",
                    refreshing: "Carregando…", never: "Última atualização: nunca",
                    today: "Última atualização: hoje às 09:07", thisYear: "Última atualização: 05/02 09:07",
                    older: "Última atualização: 23/11/2023 16:45"),
    ShippedLanguage(code: "ru", idle: "Потяните вниз, чтобы обновить", pulling: "Отпустите, чтобы обновить",
                    refreshing: "Загрузка…", never: "Последнее обновление: никогда",
                    today: "Последнее обновление: сегодня в 09:07", thisYear: "Последнее обновление: 05.02 09:07",
                    older: "Последнее обновление: 23.11.2023 16:45"),
    ShippedLanguage(code: "uk", idle: "Потягніть униз, щоб оновити", pulling: "Відпустіть, щоб оновити",
                    refreshing: "Завантаження…", never: "Останнє оновлення: ніколи",
                    today: "Останнє оновлення: сьогодні о 09:07", thisYear: "Останнє оновлення: 05.02 09:07",
                    older: "Останнє оновлення: 23.11.2023 16:45"),
    ShippedLanguage(code: "zh_CN", idle: "下拉刷新", pulling: "松开立即刷新", refreshing: "正在加载…",
                    never: "最后更新：从未", today: "最后更新：今天 09:07",
                    thisYear: "最后更新：2月5日 09:07", older: "最后更新：2023年11月23日 16:45"),
    ShippedLanguage(code: "zh_TW", idle: "下拉以重新整理", pulling: "放開以重新整理", refreshing: "正在載入…",
                    never: "最後更新：從未", today: "最後更新：今天 09:07",
                    thisYear: "最後更新：2月5日 09:07", older: "最後更新：2023年11月23日 16:45"),
]

/// Translations: every shipped language on a real header, switching at run time, right-to-left
/// layout, and the catalogs' and templates' checks.
final class LocalizationTests: XCTestCase {
    override func tearDown() {
        onMain { RefreshLocalization.setLanguage(nil) }
        super.tearDown()
    }

    // MARK: - Every shipped language

    func testTheTableCoversEveryShippedLanguageAndEachHasACompiledCatalog() {
        onMain {
            let shipped = Set(PackageScripts.linguas(of: RefreshLocalization.domain))
            XCTAssertGreaterThanOrEqual(shipped.count, 12, "po/refreshgtk/LINGUAS under \(PackageScripts.root.path)")
            XCTAssertEqual(Set(shippedLanguages.map(\.code)), shipped, "the table above lists every language of LINGUAS")
            XCTAssertEqual(Set(RefreshLocalization.availableLanguages), shipped,
                           "compiled catalogs in \(LocaleDirectory.find()): run meson-helpers/compile-po")
        }
    }

    func testTheHeaderShowsEachShippedLanguagesTexts() {
        onMain {
            let (window, header, _) = makeWindow(endAfter: nil)
            defer { window.close() }
            let now = instant("2024-03-05T18:00:00Z")
            header.lastUpdatedFormatter = LastUpdatedFormatter(clock: { now }, timeZone: TimeZone(identifier: "UTC")!)
            for language in shippedLanguages {
                RefreshLocalization.setLanguage(language.code)
                let code = language.code
                header.store.setDate(nil, forKey: header.lastUpdatedKey)
                header.refreshIndicator()
                XCTAssertEqual(header.accessibleText, "\(language.idle), \(language.never)", code)
                XCTAssertEqual(header.defaultTitle(for: .pulling), language.pulling, code)
                XCTAssertEqual(header.defaultTitle(for: .refreshing), language.refreshing, code)
                for (last, line) in [("2024-03-05T09:07:00Z", language.today), ("2024-02-05T09:07:00Z", language.thisYear),
                                     ("2023-11-23T16:45:00Z", language.older)] {
                    header.store.setDate(instant(last), forKey: header.lastUpdatedKey)
                    header.refreshIndicator()
                    XCTAssertEqual(header.accessibleText, "\(language.idle), \(line)", "\(code), last update \(last)")
                }
                XCTAssertEqual(gtk_widget_get_direction(header.indicatorWidget),
                               language.isRightToLeft ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR, code)
            }
        }
    }

    func testEnglishIsTheSourceLanguageAndNilReturnsToTheSystemLanguage() {
        onMain {
            let (window, header, _) = makeWindow(endAfter: nil)
            defer { window.close() }
            RefreshLocalization.setLanguage("ru")
            XCTAssertTrue(header.accessibleText.hasPrefix("Потяните вниз"), header.accessibleText)
            RefreshLocalization.setLanguage("en")
            XCTAssertEqual(header.accessibleText, "Pull down to refresh, Last update: Never")
            XCTAssertEqual(RefreshLocalization.language, "en")
            RefreshLocalization.setLanguage("ar")
            RefreshLocalization.setLanguage(nil)
            XCTAssertNil(RefreshLocalization.language)
            XCTAssertEqual(header.accessibleText, "Pull down to refresh, Last update: Never",
                           "the tests run with LANG=C.UTF-8 and no LANGUAGE: the system language is English")
            XCTAssertEqual(gtk_widget_get_default_direction(), GTK_TEXT_DIR_LTR)
        }
    }

    func testLanguageCodesInBCP47FormReachTheirCatalogs() {
        onMain {
            XCTAssertEqual(RefreshLocalization.normalizedLanguage("pt-BR"), "pt_BR")
            XCTAssertEqual(RefreshLocalization.normalizedLanguage("zh-Hans"), "zh_CN")
            XCTAssertEqual(RefreshLocalization.normalizedLanguage("zh-Hant-TW"), "zh_TW")
            XCTAssertEqual(RefreshLocalization.normalizedLanguage("zh-HK"), "zh_TW")
            XCTAssertEqual(RefreshLocalization.normalizedLanguage("de_DE.UTF-8"), "de_DE")
            XCTAssertEqual(RefreshLocalization.normalizedLanguage("sr_RS.UTF-8@latin"), "sr_RS@latin")
            XCTAssertEqual(RefreshLocalization.normalizedLanguage("es-419"), "es_419")
            XCTAssertEqual(RefreshLocalization.normalizedLanguage("zh"), "zh_TW")
            XCTAssertEqual(RefreshLocalization.normalizedLanguage("pt-BR:pt"), "pt_BR:pt")
            RefreshLocalization.setLanguage("zh-Hans")
            XCTAssertEqual(RefreshLocalization.text(.headerIdle), "下拉刷新")
            RefreshLocalization.setLanguage("pt-BR")
            XCTAssertEqual(RefreshLocalization.text(.headerIdle), "Puxe para baixo para atualizar")
        }
    }

    func testRightToLeftLanguages() {
        onMain {
            for code in ["ar", "ar_EG", "he", "he_IL", "fa:en", "ur"] {
                XCTAssertTrue(RefreshLocalization.isRightToLeft(code), code)
            }
            for code in ["de", "en_US", "C", "", "zh_CN", "en:ar"] {
                XCTAssertFalse(RefreshLocalization.isRightToLeft(code), code)
            }
        }
    }

    // MARK: - Switching at run time

    func testSwitchingLanguageChangesTheVisibleTextsWithinTheSameMainLoopIteration() {
        onMain {
            let (window, header, _) = makeWindow(endAfter: nil)
            defer { window.close() }
            let stateHeader = StateHeader()
            stateHeader.lastUpdatedFile = header.lastUpdatedFile
            var notifications = 0
            let token = RefreshLocalization.addObserver { notifications += 1 }
            defer { RefreshLocalization.removeObserver(token) }
            XCTAssertEqual(header.accessibleText, "Pull down to refresh, Last update: Never")

            // No main-loop iteration between the switch and the checks.
            RefreshLocalization.setLanguage("de")
            XCTAssertEqual(header.accessibleText, "Zum Aktualisieren nach unten ziehen, Zuletzt aktualisiert: nie")
            XCTAssertEqual(header.indicatorModel.title, "Zum Aktualisieren nach unten ziehen")
            XCTAssertEqual(stateHeader.accessibleText, "Zum Aktualisieren nach unten ziehen, Zuletzt aktualisiert: nie")
            assertAccessibleLabel(of: header, is: "Zum Aktualisieren nach unten ziehen, Zuletzt aktualisiert: nie")
            XCTAssertEqual(notifications, 1, "custom indicators are told once")

            RefreshLocalization.setLanguage("ar")
            XCTAssertEqual(header.accessibleText, "اسحب للأسفل للتحديث, آخر تحديث: لم يحدث بعد")
            XCTAssertEqual(gtk_widget_get_default_direction(), GTK_TEXT_DIR_RTL)
            XCTAssertEqual(gtk_widget_get_direction(header.indicatorWidget), GTK_TEXT_DIR_RTL)
            assertAccessibleLabel(of: header, is: "اسحب للأسفل للتحديث, آخر تحديث: لم يحدث بعد")

            RefreshLocalization.setLanguage("ja")
            XCTAssertEqual(header.accessibleText, "下に引いて更新, 最終更新: なし")
            XCTAssertEqual(gtk_widget_get_direction(header.indicatorWidget), GTK_TEXT_DIR_LTR)
            XCTAssertEqual(notifications, 3)

            // An app's own title for a state stays; the other texts follow the language.
            header.setTitle("Custom", for: .idle)
            RefreshLocalization.setLanguage("fr")
            XCTAssertEqual(header.accessibleText, "Custom, Dernière mise à jour\u{00A0}: jamais")
        }
    }

    func testAppOverridesAndCustomFormattersWinOverTranslations() {
        onMain {
            let (window, header, _) = makeWindow(endAfter: nil)
            defer { window.close() }
            RefreshLocalization.setLanguage("de")
            RefreshLocalization.override(.headerLastTime, with: "Stand: ")
            defer { RefreshLocalization.override(.headerLastTime, with: nil) }
            XCTAssertEqual(header.subtitle(), "Stand: nie")
            header.lastUpdatedFormatter = LastUpdatedFormatter(custom: { $0 == nil ? "noch nie" : "irgendwann" })
            XCTAssertEqual(header.accessibleText, "Zum Aktualisieren nach unten ziehen, noch nie")
        }
    }

    func testTodaysTimeSitsWhereTheLanguagePutsIt() {
        onMain {
            defer { RefreshLocalization.setLanguage(nil) }
            let utc = LastUpdatedFormatter(clock: { instant("2024-03-05T18:00:00Z") }, timeZone: TimeZone(identifier: "UTC")!)
            let last = instant("2024-03-05T09:07:00Z")
            RefreshLocalization.setLanguage("ru")
            XCTAssertEqual(LastUpdatedLine.string(for: last, formatter: utc), "Последнее обновление: сегодня в 09:07")
            RefreshLocalization.setLanguage("fr")
            XCTAssertEqual(LastUpdatedLine.string(for: last, formatter: utc), "Dernière mise à jour\u{00A0}: aujourd’hui à 09:07")
            RefreshLocalization.override(.headerDateToday, with: "Tantôt")
            defer { RefreshLocalization.override(.headerDateToday, with: nil) }
            XCTAssertEqual(LastUpdatedLine.string(for: last, formatter: utc), "Dernière mise à jour\u{00A0}: Tantôt 09:07",
                           "an app's own word for today still comes before the time")
        }
    }

    func testDatesFollowTheTimeZoneTheLineWasClassifiedIn() {
        onMain {
            RefreshLocalization.setLanguage("de")
            let now = instant("2024-03-06T00:10:00Z")
            let last = instant("2024-03-05T23:30:00Z")
            let tokyo = LastUpdatedFormatter(clock: { now }, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
            XCTAssertEqual(LastUpdatedLine.string(for: last, formatter: tokyo), "Zuletzt aktualisiert: heute 08:30")
            let utc = LastUpdatedFormatter(clock: { now }, timeZone: TimeZone(identifier: "UTC")!)
            XCTAssertEqual(LastUpdatedLine.string(for: last, formatter: utc), "Zuletzt aktualisiert: 05.03. 23:30")
        }
    }

    func testFormatSubstitution() {
        XCTAssertEqual(LastUpdatedLine.substituting("X", into: "Last update: %s"), "Last update: X")
        XCTAssertEqual(LastUpdatedLine.substituting("X", into: "%1$s — 100%%"), "X — 100%")
        XCTAssertEqual(LastUpdatedLine.substituting("X", into: "%d %s"), "%d X")
    }

    // MARK: - Plurals and the app's lookups

    func testPluralFormsFollowEachLanguagesRules() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let po = """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

            msgid "%d new entry"
            msgid_plural "%d new entries"
            msgstr[0] "%d новая запись"
            msgstr[1] "%d новые записи"
            msgstr[2] "%d новых записей"

            """
        let catalogs = folder.appendingPathComponent("ru/LC_MESSAGES")
        try FileManager.default.createDirectory(at: catalogs, withIntermediateDirectories: true)
        try po.write(to: folder.appendingPathComponent("test.po"), atomically: true, encoding: .utf8)
        let msgfmt = PackageScripts.run(URL(fileURLWithPath: "/usr/bin/msgfmt"),
                                        ["--check", "-o", catalogs.appendingPathComponent("refreshgtk-test.mo").path,
                                         folder.appendingPathComponent("test.po").path])
        XCTAssertEqual(msgfmt.status, 0, msgfmt.output)
        onMain {
            let domain = GettextDomain("refreshgtk-test", localeDirectory: folder.path)
            XCTAssertEqual(domain.catalogLanguages, ["ru"])
            defer { ChosenLanguage.set(nil) }
            ChosenLanguage.set(["ru"])
            let forms = [1, 2, 5, 11, 21, 22, 25, 0].map { domain.plural("%d new entry", "%d new entries", count: $0) }
            XCTAssertEqual(forms, ["%d новая запись", "%d новые записи", "%d новых записей", "%d новых записей",
                                   "%d новая запись", "%d новые записи", "%d новых записей", "%d новых записей"])
            // An untranslated msgid comes back whole (dgettext hands back the very pointer it got).
            let untranslated = String(repeating: "untranslated ", count: 40)
            XCTAssertEqual(domain.string(untranslated), untranslated)
            XCTAssertEqual(domain.string(""), "", "not the catalog's header")
            ChosenLanguage.set(["en"])
            XCTAssertEqual(domain.plural("%d new entry", "%d new entries", count: 1), "%d new entry")
            XCTAssertEqual(domain.plural("%d new entry", "%d new entries", count: 3), "%d new entries")
        }
    }

    // MARK: - Right to left

    func testArabicRenderPutsTheArrowAndSpinnerRightOfTheTexts() {
        onMain {
            RefreshLocalization.setLanguage("de")
            let ltr = pulledHeaderGlyphs(name: "header-pulling-de")
            XCTAssertEqual(ltr.arrowSide, .left, "control: in German the arrow is left of the text \(ltr)")

            RefreshLocalization.setLanguage("ar")
            let rtl = pulledHeaderGlyphs(name: "header-pulling-ar")
            XCTAssertEqual(rtl.arrowSide, .right, "in Arabic the arrow is right of the text \(rtl)")
            XCTAssertEqual(rtl.spinnerSide, .right, "in Arabic the spinner is right of the text \(rtl)")
        }
    }

    // MARK: - Catalogs and templates (meson-helpers/check-po)

    func testCheckPoPassesOnTheSourceTree() {
        let result = PackageScripts.run(PackageScripts.script("check-po"), [PackageScripts.root.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("all complete"), result.output)
    }

    func testCheckPoFailsOnFuzzyUntranslatedBrokenOrMissingCatalogs() throws {
        try expectCheckPoFailure("fuzzy", mentioning: "fuzzy") { root in
            try edit(root, "po/refreshgtk/de.po", replacing: "msgid \"No more data\"", with: "#, fuzzy\nmsgid \"No more data\"")
        }
        try expectCheckPoFailure("untranslated", mentioning: "untranslated") { root in
            try edit(root, "po/refreshgtk/ja.po", replacing: "msgstr \"離して更新\"", with: "msgstr \"\"")
        }
        try expectCheckPoFailure("format without %s", mentioning: "msgfmt --check fails") { root in
            try edit(root, "po/refreshgtk/fr.po", replacing: "jour\u{00A0}: %s\"", with: "jour\"")
        }
        try expectCheckPoFailure("missing catalog", mentioning: "ko.po is missing") { root in
            try FileManager.default.removeItem(at: root.appendingPathComponent("po/refreshgtk/ko.po"))
        }
        try expectCheckPoFailure("catalog not in LINGUAS", mentioning: "not listed") { root in
            try FileManager.default.copyItem(at: root.appendingPathComponent("po/refreshgtk/de.po"),
                                             to: root.appendingPathComponent("po/refreshgtk/nl.po"))
        }
    }

    func testCheckPoFailsWhenATranslationLosesAFoundationPlaceholder() throws {
        let tree = Self.readerTree
        let catalog = try String(contentsOf: PackageScripts.root.appendingPathComponent("po/feed-reader/fr.po"), encoding: .utf8)
        guard let line = catalog.split(separator: "\n").first(where: { $0.hasPrefix("msgstr \"") && $0.contains("%@") }) else {
            throw XCTSkip("the app has no string with a %@ placeholder")
        }
        try expectCheckPoFailure("lost %@", mentioning: "loses %@ placeholders", tree: tree) { root in
            try edit(root, "po/feed-reader/fr.po", replacing: String(line), with: line.replacingOccurrences(of: "%@", with: ""))
        }
    }

    func testCheckPoFailsWhenATermIsSaidInAnotherWord() throws {
        let tree = Self.readerTree
        try expectCheckPoFailure("two words for feed", mentioning: "移除訂閱來源？\" does not say 訂閱源", tree: tree) { root in
            try edit(root, "po/feed-reader/zh_TW.po", replacing: "msgstr \"移除訂閱源？\"", with: "msgstr \"移除訂閱來源？\"")
        }
        try expectCheckPoFailure("a word ruled out", mentioning: "also says خلاص", tree: tree) { root in
            try edit(root, "po/feed-reader/ar.po", replacing: "msgstr \"تعذّرت إزالة الموجز.\"", with: "msgstr \"تعذّرت إزالة الموجز (الخلاصة).\"")
        }
        // Each language ends its --help lines one way: Italian says "ed esce", not "ed esci" in some.
        try expectCheckPoFailure("another ending of a help line", mentioning: "\"Togli un’etichetta da una voce ed esci\" does not say \\besce\\b",
                                 tree: tree) { root in
            try edit(root, "po/feed-reader/it.po", replacing: "msgstr \"Toglie un’etichetta da una voce ed esce\"",
                     with: "msgstr \"Togli un’etichetta da una voce ed esci\"")
        }
        // Arabic's entry is feminine (مدخلة) in every sentence.
        try expectCheckPoFailure("the entry in the masculine", mentioning: "\"جزء المدخل\" does not say", tree: tree) { root in
            try edit(root, "po/feed-reader/ar.po", replacing: "msgstr \"جزء المدخلة\"", with: "msgstr \"جزء المدخل\"")
        }
        // Add Account's warning said the keyring in another word than the rest of the catalog.
        try expectCheckPoFailure("the keyring in two words", mentioning: "also says سلسلة المفاتيح", tree: tree) { root in
            try edit(root, "po/feed-reader/ar.po", replacing: "وحدها وتُحفظ في حلقة المفاتيح.", with: "وحدها وتُحفظ في حلقة المفاتيح (سلسلة المفاتيح).")
        }
        try expectCheckPoFailure("no glossary", mentioning: "po/glossary/de.txt is missing") { root in
            try FileManager.default.removeItem(at: root.appendingPathComponent("po/glossary/de.txt"))
        }
    }

    /// The defects translations-review-2 found, put back: each is reported.
    func testCheckPoFailsWhenAConventionIsBroken() throws {
        let defects: [(catalog: String, correct: String, broken: String, report: String)] = [
            ("zh_CN", "msgstr \"服务\"", "msgstr \"SERVICE\"", "\"SERVICE\" keeps SERVICE in English"),
            ("ar", "msgstr \"رابط\"", "msgstr \"URL\"", "URL stays in English in URL"),
            ("de", "msgstr \"DATEI\"", "msgstr \"Datei\"", "\"Datei\" has lower case"),
            ("fr", "entièrement\u{A0}: %@", "entièrement : %@", "entièrement : %@ est absent ou endommagé. Compilez-le avec meson-helpers/run ou installez-le à nouveau.\" needs U+00A0"),
            ("fr", "«\u{A0}%@\u{A0}» et tous", "«%@» et tous", "«%@» et tous ses articles seront supprimés, ici et sur le serveur.\" needs U+00A0"),
            ("ar", "سيُزال %@ من", "سيُزال \u{2068}%@\u{2069} من", "puts a bidi mark next to a placeholder"),
            // Add Account's warning: a bare http:// shows as //:http in the Arabic sentence.
            ("ar", "مع عنوان \u{2068}http://\u{2069} تعبر", "مع عنوان http:// تعبر", "writes http:// without U+2068 before and U+2069 after"),
            ("ar", "msgstr[2] \"خلال دقيقتين\"", "msgstr[2] \"خلال %d دقيقتين\"", "\"خلال %d دقيقتين\" (form 2) writes the count as a figure"),
            ("ar", "اسم الوسم حرفين.", "اسم الوسم حرفين (%d).", "\"لا يتجاوز اسم الوسم حرفين (%d).\" (form 2) writes the count as a figure"),
        ]
        try expectCheckPoFailure("conventions", mentioning: defects.map(\.report), tree: Self.readerTree) { root in
            for defect in defects {
                try edit(root, "po/feed-reader/\(defect.catalog).po", replacing: defect.correct, with: defect.broken)
            }
        }
    }

    /// The review's Arabic "1.2 MB 30.5 من MB": a download's sizes put in by hand, not isolated.
    func testCheckPoFailsWhenAValueIsFilledByHand() throws {
        try expectCheckPoFailure("by hand", mentioning: ["filled by hand", "MediaDownloadRow.swift"], tree: Self.readerTree) { root in
            try edit(root, "Sources/FeedReader/Article/MediaDownloadRow.swift",
                     replacing: #".filling(received, Self.formatted(size: expected))"#,
                     with: #".replacingOccurrences(of: "%1$@", with: received).replacingOccurrences(of: "%2$@", with: Self.formatted(size: expected))"#)
        }
    }

    func testCheckPoFailsWhenTheTemplateIsStaleOrAMarkedStringIsMissed() throws {
        let marker = "Library/Sources/RefreshGtk/Localization/LastUpdatedLine.swift"
        try expectCheckPoFailure("new string", mentioning: "out of date") { root in
            try append(root, marker, "\nlet brandNew = N_(\"A brand new string\")\n")
        }
        try expectCheckPoFailure("interpolation", mentioning: "string interpolation") { root in
            try append(root, marker, "\nfunc f(_ n: Int) -> String { N_(\"\\(n) new\") }\n")
        }
        // xgettext reads Swift as C: after a multi-line string holding "/*", C sees a comment
        // and misses the marker; only reading the file as Swift finds it.
        try expectCheckPoFailure("marker C cannot see", mentioning: "not in the refreshgtk template") { root in
            try append(root, marker, "\nlet css = \"\"\"\n    a /* b\n    \"\"\"\nlet hidden = N_(\"Hidden from C\")\n// */\n")
            _ = PackageScripts.run(PackageScripts.script("update-po"), [], in: root)
        }
        try expectCheckPoFailure("file of no domain", mentioning: "no po/*/POTFILES lists") { root in
            let file = root.appendingPathComponent("Sources/Elsewhere/Strings.swift")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "let s = tr(\"Stray\")\n".write(to: file, atomically: true, encoding: .utf8)
        }
    }

    func testRegeneratingTheTemplatesOnUnchangedSourcesChangesNothing() throws {
        let root = try PackageScripts.copy(Self.libraryTree)
        defer { try? FileManager.default.removeItem(at: root) }
        try linkScripts(into: root)
        let pot = root.appendingPathComponent("po/refreshgtk/refreshgtk.pot")
        let catalog = root.appendingPathComponent("po/refreshgtk/de.po")
        let before = try (Data(contentsOf: pot), Data(contentsOf: catalog))
        let result = PackageScripts.run(root.appendingPathComponent("meson-helpers/update-po"))
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try Data(contentsOf: pot), before.0, "the template is up to date with the sources")
        XCTAssertEqual(try Data(contentsOf: catalog), before.1, "merging changes no catalog")
    }

    // MARK: - Helpers

    /// The library's half of the tree: enough for check-po and update-po.
    static let libraryTree = ["po/refreshgtk", "po/glossary", "Library/Sources/RefreshCore", "Library/Sources/RefreshGtk"]

    /// The reader's half: its sources, its GtkBuilder files and the desktop entry and metainfo its POTFILES lists.
    static let readerTree = ["po/feed-reader", "po/glossary", "Sources/FeedReader", "Sources/FeedReaderLauncher", "Sources/FeedReaderCommands", "Sources/ReaderCommands", "data/ui",
                             "data/io.github.refreshgtk.FeedReader.desktop", "data/io.github.refreshgtk.FeedReader.metainfo.xml"]

    /// Copies the library's tree, breaks it with `breakIt`, and expects check-po to fail saying `text`.
    private func expectCheckPoFailure(_ name: String, mentioning text: String, tree: [String] = LocalizationTests.libraryTree,
                                      file: StaticString = #filePath, line: UInt = #line,
                                      _ breakIt: (URL) throws -> Void) throws {
        try expectCheckPoFailure(name, mentioning: [text], tree: tree, file: file, line: line, breakIt)
    }

    /// Copies the tree, breaks it with `breakIt`, and expects check-po to fail saying each of `texts`.
    private func expectCheckPoFailure(_ name: String, mentioning texts: [String], tree: [String] = LocalizationTests.libraryTree,
                                      file: StaticString = #filePath, line: UInt = #line,
                                      _ breakIt: (URL) throws -> Void) throws {
        let root = try PackageScripts.copy(tree)
        defer { try? FileManager.default.removeItem(at: root) }
        try linkScripts(into: root)
        let clean = PackageScripts.run(PackageScripts.script("check-po"), [root.path])
        XCTAssertEqual(clean.status, 0, "\(name): the unbroken copy passes: \(clean.output)", file: file, line: line)
        try breakIt(root)
        let broken = PackageScripts.run(PackageScripts.script("check-po"), [root.path])
        XCTAssertNotEqual(broken.status, 0, "\(name): check-po passed: \(broken.output)", file: file, line: line)
        for text in texts {
            XCTAssertTrue(broken.output.contains(text), "\(name): expected \"\(text)\" in: \(broken.output)", file: file, line: line)
        }
    }

    /// Links the copy's meson-helpers to the real scripts (update-po works on its own tree).
    private func linkScripts(into root: URL) throws {
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("meson-helpers"),
                                                   withDestinationURL: PackageScripts.root.appendingPathComponent("meson-helpers"))
    }

    private func edit(_ root: URL, _ path: String, replacing old: String, with new: String) throws {
        let url = root.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.contains(old), "\(path) contains \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    private func append(_ root: URL, _ path: String, _ addition: String) throws {
        let url = root.appendingPathComponent(path)
        try (String(contentsOf: url, encoding: .utf8) + addition).write(to: url, atomically: true, encoding: .utf8)
    }
}

private func instant(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text)!
}

@MainActor
private func assertAccessibleLabel(of header: RefreshHeader, is expected: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
    if let mismatch = cgtk_accessible_check_label(cast(header.indicatorWidget), expected) {
        XCTFail(String(cString: mismatch), file: file, line: line)
        g_free(mismatch)
    }
}

/// Where the arrow (while pulling) and the spinner (while refreshing) sit against the texts.
struct HeaderGlyphs: CustomStringConvertible {
    enum Side { case left, right, unknown }
    var arrowSide = Side.unknown
    var spinnerSide = Side.unknown
    var arrowRuns: [ClosedRange<Int>] = []
    var spinnerRuns: [ClosedRange<Int>] = []
    var description: String { "arrow \(arrowSide) in \(arrowRuns), spinner \(spinnerSide) in \(spinnerRuns)" }
}

/// Pulls a header down in a real window, renders it while pulling and while refreshing, and
/// finds the glyph beside the texts in each render.
@MainActor
private func pulledHeaderGlyphs(name: String) -> HeaderGlyphs {
    let (window, header, _) = makeWindow(endAfter: nil)
    defer { window.close() }
    var glyphs = HeaderGlyphs()
    RealInput.drag(in: window, from: window.surfacePoint(of: window.listView, x: 150, y: 30), dy: 120, release: false)
    GtkTestEnvironment.wait(until: {
        header.state == .pulling && !header.normalIndicator.isAnimating(header.indicatorModel, at: MainThread.now)
    }, "the arrow turned")
    GtkTestEnvironment.waitForFrames(of: window.window)
    XCTAssertEqual(header.state, .pulling)
    let pulledBy = Int(header.machine.offset.rounded())
    let pulling = RenderedImage(window: window.window, name: name)
    glyphs.arrowRuns = darkRuns(pulling, top: pulledBy - Int(header.extent), height: Int(header.extent))
    glyphs.arrowSide = glyphSide(glyphs.arrowRuns)

    RealInput.release()
    XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .refreshing && header.machine.animation == nil })
    GtkTestEnvironment.waitForFrames(of: window.window)
    let refreshing = RenderedImage(window: window.window, name: name + "-refreshing")
    glyphs.spinnerRuns = darkRuns(refreshing, top: 0, height: Int(header.extent))
    glyphs.spinnerSide = glyphSide(glyphs.spinnerRuns)
    header.endRefreshing()
    GtkTestEnvironment.iterate { header.state == .idle && header.machine.offset == 0 }
    return glyphs
}

/// The column ranges of a band that hold dark pixels, split where at least `gap` columns are
/// empty: words of a line stay together, the arrow or spinner (25 px from the texts) stands apart.
@MainActor
private func darkRuns(_ image: RenderedImage, top: Int, height: Int, gap: Int = 10) -> [ClosedRange<Int>] {
    var runs: [ClosedRange<Int>] = []
    var lastDark: Int?
    for x in 0..<image.width where image.darkPixels(x: x, y: top, width: 1, height: height, threshold: 150) > 0 {
        if let previous = lastDark, x - previous <= gap, let current = runs.last {
            runs[runs.count - 1] = current.lowerBound...x
        } else {
            runs.append(x...x)
        }
        lastDark = x
    }
    return runs
}

/// Which side of the texts the lone glyph is on: a narrow run (an arrow or spinner is at most
/// 24 px wide) at one end, at least 15 px from the texts (the rest), which it does not overlap.
private func glyphSide(_ runs: [ClosedRange<Int>]) -> HeaderGlyphs.Side {
    guard runs.count >= 2 else { return .unknown }
    let first = runs[0], second = runs[1], last = runs[runs.count - 1], beforeLast = runs[runs.count - 2]
    let onRight = last.count <= 24 && last.lowerBound - beforeLast.upperBound >= 15
    let onLeft = first.count <= 24 && second.lowerBound - first.upperBound >= 15
    switch (onLeft, onRight) {
    case (true, false): return .left
    case (false, true): return .right
    default: return .unknown
    }
}
