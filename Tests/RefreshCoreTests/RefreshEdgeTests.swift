import RefreshCore
import Testing

/// Which way input and content go for each edge, in GTK's coordinates (y grows downwards,
/// a positive scroll dy scrolls towards the end).
struct EdgeCase: Sendable, CustomTestStringConvertible {
    var edge: RefreshEdge
    /// A drag that pulls the component open by 10 pixels.
    var openingDrag: (dx: Double, dy: Double)
    /// A scroll delta that pulls it open by 10 pixels.
    var openingScroll: (dx: Double, dy: Double)
    /// Where the content goes when the component is open by 10 pixels.
    var displacement: (x: Double, y: Double)

    var testDescription: String { "\(edge)" }
}

@Suite("RefreshEdge: one pull axis per edge")
struct RefreshEdgeTests {
    static let cases: [EdgeCase] = [
        EdgeCase(edge: .top, openingDrag: (0, 10), openingScroll: (0, -10), displacement: (0, 10)),
        EdgeCase(edge: .bottom, openingDrag: (0, -10), openingScroll: (0, 10), displacement: (0, -10)),
        EdgeCase(edge: .left, openingDrag: (10, 0), openingScroll: (-10, 0), displacement: (10, 0)),
        EdgeCase(edge: .right, openingDrag: (-10, 0), openingScroll: (10, 0), displacement: (-10, 0)),
    ]

    @Test("a drag towards the content opens the component; the other axis is across", arguments: cases)
    func drag(_ scenario: EdgeCase) {
        let opening = scenario.edge.dragComponents(dx: scenario.openingDrag.dx, dy: scenario.openingDrag.dy)
        #expect(opening.along == 10)
        #expect(opening.across == 0)
        let closing = scenario.edge.dragComponents(dx: -scenario.openingDrag.dx, dy: -scenario.openingDrag.dy)
        #expect(closing.along == -10)
        // A drag along the other axis is all across.
        let sideways = scenario.edge.dragComponents(dx: scenario.openingDrag.dy, dy: scenario.openingDrag.dx)
        #expect(sideways.along == 0)
        #expect(abs(sideways.across) == 10)
    }

    @Test("scrolling towards the edge opens the component", arguments: cases)
    func scroll(_ scenario: EdgeCase) {
        #expect(scenario.edge.scrollComponent(dx: scenario.openingScroll.dx, dy: scenario.openingScroll.dy) == 10)
        #expect(scenario.edge.scrollComponent(dx: -scenario.openingScroll.dx, dy: -scenario.openingScroll.dy) == -10)
        #expect(scenario.edge.scrollComponent(dx: scenario.openingScroll.dy, dy: scenario.openingScroll.dx) == 0)
    }

    @Test("the content moves away from the opened edge", arguments: cases)
    func displacement(_ scenario: EdgeCase) {
        let moved = scenario.edge.contentDisplacement(10)
        #expect(moved.x == scenario.displacement.x)
        #expect(moved.y == scenario.displacement.y)
    }

    @Test("vertical edges", arguments: [(RefreshEdge.top, true), (.bottom, true), (.left, false), (.right, false)])
    func vertical(edge: RefreshEdge, isVertical: Bool) {
        #expect(edge.isVertical == isVertical)
    }

    @Test("the trailing edge is the right one, or the left one in right-to-left layouts")
    func trailing() {
        #expect(RefreshEdge.trailing(rightToLeft: false) == .right)
        #expect(RefreshEdge.trailing(rightToLeft: true) == .left)
    }
}
