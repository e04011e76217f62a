import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The reader as a screen reader reaches it: Tests/Accessibility/reader-atspi.py walks the
/// window's AT-SPI tree and drives it through AT-SPI actions alone, while this process answers.
final class AtspiTests: XCTestCase {
    func testEveryControlIsNamedAndAnEntryCanBeSelectedStarredAndFoundThroughAtspi() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let (status, output) = Self.runScript(arguments: [app.title, "Entry 2", "1"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("the search for 'Entry 2' lists Entry 2, Plain"), output)

            let list = app.window.entryList
            XCTAssertEqual(app.starredInStore(), 1, "the star reached the store")
            XCTAssertEqual(list.shownTitles, ["Entry 2"], "the list shows the search's one result")
            XCTAssertEqual(list.selectedEntry?.title, "Entry 2")
            XCTAssertEqual(list.selectedEntry?.isStarred, true)
            XCTAssertEqual(app.window.article.entry?.title, "Entry 2", "the article shows the entry selected through AT-SPI")
        }
    }

    func testEveryPaneOfANarrowWindowIsNamedAndBackWorksThroughAtspi() throws {
        try withReader(serving: plainFeed(entries: 3), entries: 3) { app in
            let window = app.window
            PaneLeafletTests.resize(app, width: 500)
            XCTAssertTrue(GtkTestEnvironment.iterate { PaneLeafletTests.shownPanes(window) == [.entries] })
            RealInput.click(windowTitle: app.title, at: app.point(in: window.entryList.listView, x: 100, y: 20))
            XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 20) {
                PaneLeafletTests.shownPanes(window) == [.article] && window.article.isLoaded
            }, "a click on an entry showed its article")

            let steps: [(pane: String, back: Bool, after: [PaneLeaflet.Pane])] = [
                ("article", true, [.entries]), ("entry list", true, [.feeds]), ("feed list", false, [.feeds]),
            ]
            for step in steps {
                var arguments = ["--pane", app.title, step.pane]
                if step.back { arguments.append("--back") }
                let (status, output) = Self.runScript(arguments: arguments)
                XCTAssertEqual(status, 0, output)
                XCTAssertTrue(output.contains("every focusable or clickable element is named with the \(step.pane) shown"), output)
                XCTAssertTrue(GtkTestEnvironment.iterate { PaneLeafletTests.shownPanes(window) == step.after },
                              "after the \(step.pane): \(PaneLeafletTests.shownPanes(window))")
            }
        }
    }

    /// Runs the script with Debian's Python (where python3-pyatspi is), answering its AT-SPI
    /// calls from this main loop until it exits; returns its exit status and output.
    @MainActor
    static func runScript(arguments: [String]) -> (Int32, String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Accessibility/reader-atspi.py").standardized
        let child: Subprocess
        do {
            child = try Subprocess("/usr/bin/python3", [script.path] + arguments)
        } catch {
            return (-1, "\(script.path) could not start: \(error)")
        }
        let (status, output, errors) = child.finishTurningMainLoop(timeout: 120)
        guard let status else { return (-1, "timed out:\n" + output + errors) }
        return (status, output + errors)
    }
}
