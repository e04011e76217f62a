import CGtk
import FeedCore
import Foundation
import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// An error is kept as a code and worded when shown, so it follows the language the person picks,
/// and a reason an older version stored in English is never shown as it is.
final class ErrorLanguageTests: XCTestCase {
    func testAFailedRefreshsReasonFollowsALiveLanguageSwitch() throws {
        let feed = ServedFeed(entries: 3)
        let server = try TestHTTPServer { _ in feed.failing ? .status(500) : .ok(feed.xml) }
        defer { server.stop() }
        try onMain {
            let app = try ReaderFixture(subscribingTo: "http://127.0.0.1:\(server.port)/feed.xml")
            defer { app.close() }
            defer { app.window.switchLanguage(to: "") }
            app.window.switchLanguage(to: "de")
            feed.failing = true
            app.window.entryList.header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 10) { app.window.notices.toasts.message != nil })
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)
            XCTAssertTrue(GtkTestEnvironment.iterate { app.window.sidebar.tooltip(forFeed: feedID) != nil })
            XCTAssertEqual(app.window.sidebar.tooltip(forFeed: feedID),
                           "Letzte Aktualisierung fehlgeschlagen: \u{2068}Der Server hatte ein Problem (Fehler 500).\u{2069}")
            XCTAssertTrue(app.window.notices.toasts.message?.hasSuffix("Der Server hatte ein Problem (Fehler 500).") ?? false,
                          app.window.notices.toasts.message ?? "no toast")

            app.window.switchLanguage(to: "fr")

            XCTAssertEqual(app.window.sidebar.tooltip(forFeed: feedID),
                           "Échec de la dernière actualisation\u{00A0}: \u{2068}Le serveur a rencontré un problème (erreur 500).\u{2069}")
        }
    }

    func testAFeedsMistakesAreListedInTheLanguageChosen() throws {
        let xml = Data("""
            <rss version="2.0"><channel><title>Q & A</title>
            <item><title>Caf&eacute; news</title><guid>m-1</guid></item></channel></rss>
            """.utf8)
        try FeedReaderTests.withReader(serving: xml, entries: 1) { app in
            defer { app.window.switchLanguage(to: "") }
            let feedID = try XCTUnwrap(app.window.sidebar.feedIDs.first)

            app.window.switchLanguage(to: "de")

            XCTAssertEqual(app.window.sidebar.tooltip(forFeed: feedID), """
                Trotz Fehlern im Feed gelesen: \n\u{2068}Ein einzelnes „&“ wurde als Text gelesen.\u{2069}\
                \n\u{2068}HTML-Zeichennamen wurden wie in HTML gelesen.\u{2069}
                """)
        }
    }

    func testAReasonStoredInEnglishByAnOlderVersionIsNotShownAsItIs() {
        onMain {
            defer { LanguageChoice.speak(nil) }
            let legacy = ErrorReason(.unrecorded, [.technical: "Server returned 999 Strange"])
            LanguageChoice.speak("de")
            XCTAssertEqual(legacy.sentence,
                           "Der Grund ist nicht mehr bekannt; er wird nach der nächsten Aktualisierung wieder angezeigt.")
            LanguageChoice.speak(nil)
            XCTAssertFalse(legacy.sentence.contains("Strange"))
        }
    }

    /// The review's bug: in an Arabic sentence, Pango moved a path's leading "/" to its far end.
    func testAPathInAnArabicSentenceReadsAsAPath() {
        onMain {
            defer { LanguageChoice.speak(nil) }
            LanguageChoice.speak("ar")
            let sentence = tr("The subscriptions could not be exported to %@.")
            let path = "/home/u/x.opml"
            let isolated = Self.slashAndNextLetter(sentence.filling(path), path: path)
            XCTAssertLessThan(isolated.slash, isolated.letter, "the path reads left to right, \"/\" first")
            let bare = Self.slashAndNextLetter(sentence.replacingOccurrences(of: "%@", with: path), path: path)
            XCTAssertGreaterThan(bare.slash, bare.letter, "without isolation the \"/\" jumps to the path's far end")
        }
    }

    /// The review's bug: Arabic "%1$@ of %2$@" filled by hand drew "1.2 MB 30.5 من MB", the
    /// total's number before من and its unit after it.
    func testADownloadsProgressInArabicKeepsEachSizeWhole() {
        onMain {
            defer { LanguageChoice.speak(nil) }
            LanguageChoice.speak("ar")
            let sentence = tr("%1$@ of %2$@")
            let (received, total) = ("1.2\u{A0}MB", "30.5\u{A0}MB")
            let word = sentence.replacingOccurrences(of: "%1$@", with: "").replacingOccurrences(of: "%2$@", with: "")
                .trimmingCharacters(in: .whitespaces)
            XCTAssertFalse(word.isEmpty || word == "of", "Arabic has its own word for \"of\": \(sentence)")
            let filled = sentence.filling(received, total)
            XCTAssertFalse(Self.drawsBetween(word, total, in: filled), "\(filled): the total is drawn whole, beside the word")
            let bare = sentence.replacingOccurrences(of: "%1$@", with: received).replacingOccurrences(of: "%2$@", with: total)
            XCTAssertTrue(Self.drawsBetween(word, total, in: bare), "without isolation \(word) is drawn inside the total")
        }
    }

    /// Whether an auto-direction label draws `word` between the first and the last character of
    /// `value` (the last occurrence of each in `text`).
    @MainActor
    private static func drawsBetween(_ word: String, _ value: String, in text: String) -> Bool {
        let label = gtk_label_new(text)!
        g_object_ref_sink(label)
        defer { g_object_unref(label) }
        let layout = gtk_widget_create_pango_layout(label, text)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_auto_dir(layout, 1)
        func x(_ index: String.Index) -> Int32 {
            var rectangle = PangoRectangle()
            pango_layout_index_to_pos(layout, Int32(text.utf8.distance(from: text.utf8.startIndex, to: index)), &rectangle)
            return rectangle.width < 0 ? rectangle.x + rectangle.width : rectangle.x
        }
        let valueRange = text.range(of: value, options: .backwards)!
        let wordX = x(text.range(of: word)!.lowerBound)
        let first = x(valueRange.lowerBound), last = x(text.index(before: valueRange.upperBound))
        return min(first, last) < wordX && wordX < max(first, last)
    }

    /// Where a right-to-left label draws the path's first "/" and the letter after it.
    @MainActor
    private static func slashAndNextLetter(_ text: String, path: String) -> (slash: Int32, letter: Int32) {
        let label = gtk_label_new(text)!
        g_object_ref_sink(label)
        defer { g_object_unref(label) }
        gtk_widget_set_direction(label, GTK_TEXT_DIR_RTL)
        let layout = gtk_widget_create_pango_layout(label, text)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_auto_dir(layout, 1)
        let index = Int32(text.utf8.distance(from: text.utf8.startIndex, to: text.range(of: path)!.lowerBound.samePosition(in: text.utf8)!))
        var slash = PangoRectangle(), letter = PangoRectangle()
        pango_layout_index_to_pos(layout, index, &slash)
        pango_layout_index_to_pos(layout, index + 1, &letter)
        return (slash.x, letter.x)
    }

    func testEveryErrorCodeIsWordedInEveryLanguage() {
        onMain {
            defer { LanguageChoice.speak(nil) }
            let reasons = ErrorCode.allCases.map { ErrorReason($0, [.status: "503", .path: "/tmp/a", .host: "h", .line: "2"]) }
            LanguageChoice.speak(nil)
            let english = reasons.map(\.sentence)
            for language in ["ar", "de", "es", "fr", "it", "ja", "ko", "pt_BR", "ru", "uk", "zh_CN", "zh_TW"] {
                LanguageChoice.speak(language)
                for (reason, sentence) in zip(reasons, english) {
                    XCTAssertNotEqual(reason.sentence, sentence, "\(reason.code) in \(language)")
                }
            }
        }
    }
}
