import CGtk
import Foundation
import RefreshCore
import TestSupport
import XCTest
@testable import RefreshGtk

/// The compact header: MJRefresh's content (the state, the last-updated time, the arrow and
/// spinner) on one line in GNOME's look, a time the app can set, and no motion where the desktop
/// asks for none.
final class CompactHeaderTests: XCTestCase {
    /// Where an indicator drawn as `model` in a `width` by `height` area puts its ink.
    @MainActor
    static func ink(of indicator: NormalIndicator, _ model: IndicatorModel, width: Double, height: Double,
                    direction: GtkTextDirection = GTK_TEXT_DIR_LTR) -> (x: Double, y: Double, width: Double, height: Double) {
        let widget = gtk_label_new("")!
        g_object_ref_sink(cast(widget))
        defer { g_object_unref(cast(widget)) }
        gtk_widget_set_direction(widget, direction)
        var area = cairo_rectangle_t(x: 0, y: 0, width: width, height: height)
        let surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &area)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        indicator.draw(IndicatorDrawContext(cairo: cairo, widget: widget, width: width, height: height, time: 0, model: model,
                                            foreground: GdkRGBA(red: 0, green: 0, blue: 0, alpha: 1)))
        cairo_destroy(cairo)
        var x = 0.0, y = 0.0, inkWidth = 0.0, inkHeight = 0.0
        cairo_recording_surface_ink_extents(surface, &x, &y, &inkWidth, &inkHeight)
        return (x, y, inkWidth, inkHeight)
    }

    static func model(_ state: RefreshState, _ title: String) -> IndicatorModel {
        IndicatorModel(state: state, previousState: .idle, pullingPercent: 1, edge: .top, title: title,
                       subtitle: "Last update: Today 10:05", stateChangedAt: -10)
    }

    func testTheStateTimeAndGlyphShareOneCentredLineWhereMJRefreshStacksTwo() {
        let cases: [(RefreshState, String)] = [(.idle, "Pull down to refresh"), (.pulling, "Release to refresh"), (.refreshing, "Loading…")]
        for (state, title) in cases { onMain {
            let (width, height) = (600.0, CompactHeader.compactHeight)
            let compact = CompactHeader().normalIndicator
            let ink = Self.ink(of: compact, Self.model(state, title), width: width, height: height)
            XCTAssertLessThanOrEqual(ink.height, 20, "\(state): one line, \(ink)")
            XCTAssertEqual(ink.y + ink.height / 2, height / 2, accuracy: 2, "\(state): in the middle of the header")
            XCTAssertEqual(ink.x + ink.width / 2, width / 2, accuracy: 2, "\(state): centred as a whole")
            let stacked = Self.ink(of: NormalHeader().normalIndicator, Self.model(state, title), width: width, height: RefreshHeader.defaultHeight)
            XCTAssertGreaterThan(stacked.height, 24, "\(state): MJRefresh's two lines, for comparison")
        } }
    }

    func testTheGlyphLeadsTheLineInEitherDirection() {
        onMain {
            let model = Self.model(.refreshing, "Loading…")
            for direction in [GTK_TEXT_DIR_LTR, GTK_TEXT_DIR_RTL] {
                let indicator = CompactHeader().normalIndicator
                let withGlyph = Self.ink(of: indicator, model, width: 600, height: 40, direction: direction)
                indicator.showsArrow = false
                let textsOnly = Self.ink(of: indicator, Self.model(.idle, "Loading…"), width: 600, height: 40, direction: direction)
                // The glyph sits before the texts in reading order, so the line grows at its start.
                if direction == GTK_TEXT_DIR_LTR {
                    XCTAssertLessThan(withGlyph.x, textsOnly.x - 10, "left to right: the spinner on the left")
                } else {
                    XCTAssertGreaterThan(withGlyph.x + withGlyph.width, textsOnly.x + textsOnly.width + 10, "right to left: the spinner on the right")
                }
            }
        }
    }

    func testTheAppSetsTheTimeItKnowsAndTheHeaderKeepsIt() {
        onMain {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("compact-\(UUID().uuidString).ini").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let header = CompactHeader()
            header.lastUpdatedFile = file
            header.lastUpdatedKey = "feed-1"
            XCTAssertNil(header.lastUpdated)
            XCTAssertEqual(header.indicatorModel.subtitle, "Last update: Never")
            let fetched = Date(timeIntervalSinceNow: -60)
            header.lastUpdated = fetched
            XCTAssertTrue(header.indicatorModel.subtitle?.hasPrefix("Last update: Today ") ?? false, header.indicatorModel.subtitle ?? "none")
            let again = CompactHeader()
            again.lastUpdatedFile = file
            again.lastUpdatedKey = "feed-1"
            XCTAssertEqual(again.lastUpdated?.timeIntervalSince1970 ?? 0, fetched.timeIntervalSince1970, accuracy: 1, "kept in its file")
        }
    }

    func testWithAnimationsOffTheSpinnerStandsStill() {
        onMain {
            for enabled in [false, true] {
                GtkTestEnvironment.withAnimations(enabled) {
                    let view = IndicatorView(indicator: NormalIndicator(), model: Self.model(.idle, "Pull down to refresh"))
                    view.update(Self.model(.refreshing, "Loading…"))
                    XCTAssertEqual(view.isTicking, enabled, "animations \(enabled ? "on" : "off"): frames \(enabled ? "" : "do not ")come for the spinner")
                }
            }
        }
    }
}
