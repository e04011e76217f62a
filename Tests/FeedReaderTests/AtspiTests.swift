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
        let log = temporaryDirectory().appendingPathComponent("reader-atspi.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path] + arguments
        guard let output = try? FileHandle(forWritingTo: log) else { return (-1, "cannot write \(log.path)") }
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return (-1, "\(script.path) could not start: \(error)")
        }
        let exited = GtkTestEnvironment.iterate(timeout: 120) { !process.isRunning }
        if !exited { process.terminate() }
        try? output.close()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return exited ? (process.terminationStatus, text) : (-1, "timed out:\n" + text)
    }
}
