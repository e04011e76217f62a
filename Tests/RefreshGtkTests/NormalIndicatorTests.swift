import RefreshCore
import TestSupport
import XCTest
@testable import RefreshGtk

/// The arrow-and-spinner indicator asks for frames only while something on it moves.
final class NormalIndicatorTests: XCTestCase {
    func testFramesComeOnlyForTheSpinnerAndWhileTheArrowTurns() {
        let turn = RefreshMachine.Duration.fast
        let cases: [(previous: RefreshState, state: RefreshState, after: Double, showsArrow: Bool, animating: Bool)] = [
            (.idle, .pulling, turn / 2, true, true), (.pulling, .idle, turn / 2, true, true),
            (.idle, .pulling, turn * 2, true, false), (.pulling, .idle, turn / 2, false, false),
            (.pulling, .refreshing, turn * 10, true, true), (.idle, .willRefresh, turn * 10, false, true),
            // A footer reaching its end, or loading again, draws its new text once.
            (.idle, .noMoreData, turn / 2, true, false), (.noMoreData, .idle, turn / 2, true, false),
            (.refreshing, .idle, turn / 2, true, false), (.refreshing, .noMoreData, 0, true, false),
        ]
        for (previous, state, after, showsArrow, animating) in cases { onMain {
            let indicator = NormalIndicator()
            indicator.showsArrow = showsArrow
            let model = IndicatorModel(state: state, previousState: previous, pullingPercent: 0, edge: .top, title: "",
                                       subtitle: nil, stateChangedAt: 100)
            XCTAssertEqual(indicator.isAnimating(model, at: 100 + after), animating,
                           "\(previous) to \(state), \(after) s later, arrow \(showsArrow)")
        } }
    }
}
