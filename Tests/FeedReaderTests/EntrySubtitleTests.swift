import CGtk
import Foundation
import TestSupport
import XCTest
@testable import FeedReader

/// The entry list's subtitle (feed · author · date), as Pango lays it out.
final class EntrySubtitleTests: XCTestCase {
    /// A synced author ending in U+202E RIGHT-TO-LEFT OVERRIDE reversed the date beside it (case 25
    /// of the red team's second run): each part is isolated, so the date still reads left to right
    /// after the author, and the feed's name before it.
    func testADirectionControlInAnAuthorStaysInsideIt() {
        onMain {
            let date = "3 Nov 2026"
            for author in ["Eve\u{202E}", "Eve\u{202B}", "\u{202E}Eve", "Eve\u{2067}"] {
                let text = EntryListView.subtitle(["Garden Notes", author, date, nil, ""])
                let label = gtk_label_new(text)!
                g_object_ref_sink(UnsafeMutableRawPointer(label))
                defer { g_object_unref(UnsafeMutableRawPointer(label)) }
                let layout = gtk_widget_create_pango_layout(label, text)!
                defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
                func x(_ needle: String, last: Bool = false) -> Int32 {
                    let range = text.range(of: needle)!
                    let position = last ? text.index(before: range.upperBound) : range.lowerBound
                    var rectangle = PangoRectangle()
                    pango_layout_index_to_pos(layout, Int32(text.utf8.distance(from: text.startIndex, to: position)), &rectangle)
                    return rectangle.x
                }
                XCTAssertLessThan(x(date), x(date, last: true), "the date reads left to right after \(author.unicodeScalars.map(\.value))")
                XCTAssertLessThan(x("Garden"), x("Eve"), "the feed comes first")
                XCTAssertLessThan(x("Eve"), x(date), "the author comes before the date")
                XCTAssertEqual(text.filter { $0 == "·" }.count, 2, "empty and missing parts leave no separator")
            }
        }
    }
}
