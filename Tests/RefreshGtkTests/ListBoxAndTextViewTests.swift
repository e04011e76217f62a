import CGtk
import RefreshCore
import XCTest
@testable import RefreshGtk

/// Every component on every kind of scrolled child: a GtkListBox (inside the viewport GTK adds),
/// a GtkTextView (scrollable itself) and a GtkListView of 10,000 rows, each driven through a
/// whole load cycle by a real mouse drag and by the touchpad's scroll sequence.
final class ListBoxAndTextViewTests: XCTestCase {
    // MARK: GtkListBox

    func testListBoxHeader() { assertCycles(.listBox, of: .header) }
    func testListBoxBackFooter() { assertCycles(.listBox, of: .backFooter) }
    func testListBoxAutoFooter() { assertCycles(.listBox, of: .autoFooter) }
    func testListBoxTrailer() { assertCycles(.listBox, of: .trailer) }

    // MARK: GtkTextView

    func testTextViewHeader() { assertCycles(.textView, of: .header) }
    func testTextViewBackFooter() { assertCycles(.textView, of: .backFooter) }
    func testTextViewAutoFooter() { assertCycles(.textView, of: .autoFooter) }
    func testTextViewTrailer() { assertCycles(.textView, of: .trailer) }

    // MARK: GtkListView of 10,000 rows (the header, back footer and trailer have their own files)

    func testListViewAutoFooter() { assertCycles(.listView, of: .autoFooter) }
}

/// The components every child is tried with.
enum ComponentKind: String, CaseIterable {
    case header, backFooter, autoFooter, trailer

    @MainActor
    func make() -> RefreshComponent {
        switch self {
        case .header:
            let header = NormalHeader()
            header.lastUpdatedFile = temporaryDirectory().appendingPathComponent("settings.ini").path
            return header
        case .backFooter: return NormalBackFooter()
        case .autoFooter: return NormalAutoFooter()
        case .trailer: return NormalTrailer()
        }
    }
}

/// Runs `component` on `content` through one whole cycle per gesture, each in a fresh window.
private func assertCycles(_ content: ContentKind, of kind: ComponentKind, file: StaticString = #filePath, line: UInt = #line) {
    onMain {
        for gesture in PullGesture.allCases {
            let window = ContentWindow(content)
            defer { window.close() }
            let component = kind.make()
            component.link(to: window.view)
            let recorder = Recorder(component, endAfter: 0.3)
            window.present()
            let context = "\(kind) on \(content) by \(gesture)"
            XCTAssertTrue(content.scrolls(along: component.edge), context, file: file, line: line)
            if kind == .autoFooter {
                // Arriving at the end shows the footer, which loads once by itself; the gesture then loads again.
                window.scroll(to: component.edge)
                XCTAssertTrue(GtkTestEnvironment.iterate { recorder.afterEndings == 1 && component.state == .idle },
                              "\(context): arriving at the end loads", file: file, line: line)
                window.pull(component, with: gesture)
                XCTAssertTrue(GtkTestEnvironment.iterate { recorder.afterEndings == 2 && component.state == .idle },
                              "\(context): states \(recorder.states)", file: file, line: line)
                XCTAssertEqual(recorder.refreshes, 2, context, file: file, line: line)
            } else {
                window.pull(component, with: gesture)
                XCTAssertTrue(recorder.waitForCycle(of: component), "\(context): states \(recorder.states)",
                              file: file, line: line)
                XCTAssertEqual(recorder.states, [.pulling, .refreshing, .idle], context, file: file, line: line)
                XCTAssertEqual(recorder.refreshes, 1, context, file: file, line: line)
                GtkTestEnvironment.waitForFrames(of: window.window)
                XCTAssertEqual(window.contentOrigin.x, 0, context, file: file, line: line)
                XCTAssertEqual(window.contentOrigin.y, 0, context, file: file, line: line)
            }
        }
    }
}
