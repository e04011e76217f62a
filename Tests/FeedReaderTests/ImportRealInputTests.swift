import CGtk
import FeedCore
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Importing subscriptions as a person does it, with the real pointer and keyboard: a file
/// dragged from another program onto the window, and a file chosen in the file dialog opened
/// from the main menu by typing its name.
final class ImportRealInputTests: XCTestCase {
    /// Three feeds, two of them in News inside Reading.
    fileprivate static func opml(_ server: TestHTTPServer) throws -> URL {
        let file = temporaryDirectory().appendingPathComponent("subscriptions.opml")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>From elsewhere</title></head><body>
              <outline text="Reading"><outline text="News">
                <outline type="rss" text="One" xmlUrl="\(server.url("/one.xml"))"/>
                <outline type="rss" text="Two" xmlUrl="\(server.url("/two.xml"))"/>
              </outline></outline>
              <outline type="rss" text="Three" xmlUrl="\(server.url("/three.xml"))"/>
            </body></opml>
            """.utf8).write(to: file)
        return file
    }

    /// What the person sees once the file is imported: its feeds and folders in the sidebar.
    @MainActor
    fileprivate static func assertImported(_ app: ReaderFixture, file: StaticString = #filePath, line: UInt = #line) {
        let sidebar = app.window.sidebar
        XCTAssertTrue(GtkTestEnvironment.iterate(timeout: 15) { app.window.importBar.message?.hasPrefix("3 subscriptions were imported") ?? false },
                      "import bar: \(app.window.importBar.message ?? "none")", file: file, line: line)
        XCTAssertTrue(GtkTestEnvironment.iterate { sidebar.feedIDs.count == 4 && sidebar.folders.map(\.name) == ["Reading", "News"] },
                      "sidebar: \(sidebar.items)", file: file, line: line)
        XCTAssertEqual(sidebar.folders.last.map { sidebar.pathName(of: $0.id) }, "Reading › News", file: file, line: line)
    }

    /// Opens the main menu with the real pointer and picks Import Subscriptions… by its key;
    /// fails unless the file dialog titled `dialogTitle` opens.
    @MainActor
    fileprivate static func chooseImportInMenu(of app: ReaderFixture, opening dialogTitle: String,
                                               file: StaticString = #filePath, line: UInt = #line) throws {
        RealInput.click(windowTitle: app.title, at: app.point(in: try XCTUnwrap(FolderTests.mainMenuButton(of: app)), x: 10, y: 10))
        RealInput.key(windowTitle: app.title, "i")
        XCTAssertTrue(GtkTestEnvironment.iterate { FolderTests.toplevel(titled: dialogTitle) != nil },
                      "the menu's Import Subscriptions… opens the file dialog", file: file, line: line)
    }

    func testAnOPMLFileDraggedFromAnotherProgramIsImported() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 2)) }
        defer { server.stop() }
        try dragAndAssertImported(Self.opml(server).absoluteString, server: server)
    }

    /// A name in Latin-1, not UTF-8, reaches the reader by its bytes: taken for text, it would
    /// name a file that does not exist.
    func testAFileNamedInLatinOneDraggedFromAnotherProgramIsImported() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 2)) }
        defer { server.stop() }
        let file = LatinOneFileName(in: temporaryDirectory(), "abonnements-", ".opml")
        try file.write(Data(contentsOf: Self.opml(server)))
        try dragAndAssertImported(file.uri, server: server)
    }

    /// Drags the file at `uri` from another program's window onto the reader's list and checks
    /// that it was imported.
    private func dragAndAssertImported(_ uri: String, server: TestHTTPServer) throws {
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let source = try DragSourceWindow(offering: uri)
            defer { source.stop() }
            // The source's window (200 by 120, no frame) is where windows open, over the reader's.
            let start = source.point(x: 100, y: 60)
            let end = app.point(in: app.window.entryList.widget, x: 120, y: 300)

            RealInput.drag(windowTitle: source.title, from: start, dx: end.x - start.x, dy: end.y - start.y, steps: 20, interval: 0.03,
                           release: false)
            for offset in [3, -3, 1] { RealInput.move(windowTitle: app.title, to: (end.x + offset, end.y + offset)) }
            RealInput.release()

            Self.assertImported(app)
            XCTAssertTrue(GtkTestEnvironment.iterate { source.output.contains("drag-end") }, "the source saw its drag end: \(source.output)")
            XCTAssertFalse(source.output.contains("drag-cancel"), source.output)
        }
    }

    /// The dialog is in the file's folder, as after a person went there, and the name is typed:
    /// a whole path typed through the shared temporary folder has the location entry's completion
    /// list and sort every one of its thousands of entries, which froze the dialog for a minute.
    func testImportFromTheMenuChoosesTheFileByTypingItsName() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 2)) }
        defer { server.stop() }
        let file = try Self.opml(server)
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let dialogTitle = "Import Subscriptions"

            try Self.chooseImportInMenu(of: app, opening: dialogTitle)
            let dialog = try XCTUnwrap(FolderTests.toplevel(titled: dialogTitle))
            let folder = g_file_new_for_path(file.deletingLastPathComponent().path)!
            defer { g_object_unref(cast(folder)) }
            XCTAssertNotEqual(gtk_file_chooser_set_current_folder(cast(dialog), folder, nil), 0)
            // A person types once the folder's files show: a name typed while the dialog still
            // lists the folder is taken for a file it does not know, and Return does nothing.
            XCTAssertTrue(GtkTestEnvironment.iterate {
                PreferencesWindowTests.widgets(under: dialog, a: gtk_tree_view_get_type()).contains {
                    gtk_widget_get_mapped($0) != 0 && gtk_tree_view_get_model(cast($0)).map { gtk_tree_model_iter_n_children($0, nil) > 0 } == true
                }
            }, "the dialog lists the folder")
            RealInput.key(windowTitle: dialogTitle, "ctrl+l")
            RealInput.type(windowTitle: dialogTitle, file.lastPathComponent)
            let typed = { gtk_window_get_focus(cast(dialog)).map { String(cString: gtk_editable_get_text(cast($0))) } }
            XCTAssertTrue(GtkTestEnvironment.iterate { typed() == file.lastPathComponent }, "typed: \(typed() ?? "no focus")")
            RealInput.key(windowTitle: dialogTitle, "Return")

            XCTAssertTrue(GtkTestEnvironment.iterate { FolderTests.toplevel(titled: dialogTitle) == nil }, "the dialog closes")
            Self.assertImported(app)
        }
    }
}

extension ImportRealInputTests {
    /// The file dialog hands over a file named in Latin-1 by its bytes. Its name cannot be typed
    /// (the dialog's entry takes UTF-8 text), so the dialog is pointed at the file as its list
    /// would be when the person clicks the file, and the person presses Open.
    func testTheFileDialogHandsOverAFileNamedInLatinOne() throws {
        let server = try TestHTTPServer { _ in .ok(plainFeed(entries: 2)) }
        defer { server.stop() }
        let file = LatinOneFileName(in: temporaryDirectory(), "abonnements-", ".opml")
        try file.write(Data(contentsOf: Self.opml(server)))
        try onMain {
            let app = try ReaderFixture(subscribingTo: server.url("/feed.xml").absoluteString)
            defer { app.close() }
            let dialogTitle = "Import Subscriptions"
            try Self.chooseImportInMenu(of: app, opening: dialogTitle)
            let dialog = try XCTUnwrap(FolderTests.toplevel(titled: dialogTitle))

            let chosen = g_file_new_for_path(file.path)!
            defer { g_object_unref(cast(chosen)) }
            XCTAssertNotEqual(gtk_file_chooser_set_file(cast(dialog), chosen, nil), 0)
            // The dialog selects the file once it has listed the folder.
            XCTAssertTrue(GtkTestEnvironment.iterate {
                guard let selected = gtk_file_chooser_get_file(cast(dialog)) else { return false }
                defer { g_object_unref(cast(selected)) }
                return g_file_equal(selected, chosen) != 0
            }, "the dialog selects the file")
            RealInput.key(windowTitle: dialogTitle, "Return")

            XCTAssertTrue(GtkTestEnvironment.iterate { FolderTests.toplevel(titled: dialogTitle) == nil }, "the dialog closes")
            Self.assertImported(app)
        }
    }
}

/// Another program's window offering a file to drag (Tests/DragSource/drag-file.py, GTK 4 through
/// Debian's python3-gi), as a file manager's would.
@MainActor
final class DragSourceWindow {
    let title = "drag-source-\(UUID().uuidString.prefix(8))"
    private let process: Subprocess

    /// A window offering the file at `uri` (a `file:` URI, whose bytes may be any).
    init(offering uri: String) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DragSource/drag-file.py")
        process = try Subprocess("/usr/bin/python3", [script.path, uri, title])
        guard GtkTestEnvironment.iterate(timeout: 15, until: { self.output.contains("ready") }) else {
            throw DragSourceError.didNotStart(output)
        }
    }

    enum DragSourceError: Error { case didNotStart(String) }

    /// Everything the program printed so far.
    var output: String { process.outputSoFar }

    /// `(x, y)` of the window where real input addresses it: in the window under X11, in the
    /// output layout under Wayland (the test compositor opens every window at the same place).
    func point(x: Int, y: Int) -> (x: Int, y: Int) {
        GtkTestEnvironment.isWayland ? (VirtualInput.windowOrigin.x + x, VirtualInput.windowOrigin.y + y) : (x, y)
    }

    func stop() {
        process.stop()
    }
}
