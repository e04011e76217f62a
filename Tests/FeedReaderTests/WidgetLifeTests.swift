import CGtk
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// Closures tied to a widget's life run while it exists and do nothing once it is destroyed.
final class WidgetLifeTests: XCTestCase {
    func testATiedClosureRunsOnlyWhileItsWidgetExists() {
        onMain {
            let window = gtk_window_new()!
            let life = WidgetLife(window)
            var calls: [String] = []
            let none = life.tied { calls.append("none") }
            let one = life.tied { (text: String) in calls.append(text) }
            let two = life.tied { (text: String, count: Int) in calls.append("\(text) \(count)") }
            none()
            one("one")
            two("two", 2)
            XCTAssertEqual(calls, ["none", "one", "two 2"])
            XCTAssertTrue(life.isAlive)
            gtk_window_destroy(cast(window))
            XCTAssertFalse(life.isAlive)
            none()
            one("after")
            two("after", 3)
            XCTAssertEqual(calls, ["none", "one", "two 2"], "nothing runs once the window is destroyed")
        }
    }
}
