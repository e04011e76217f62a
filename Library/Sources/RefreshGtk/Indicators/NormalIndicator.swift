import CGtk
import Foundation
import RefreshCore

/// MJRefresh's Normal look: an arrow that turns when the pull passes the threshold, a spinner
/// while refreshing, and the texts. The arrow sits `labelInset` before the texts, or after them
/// in right-to-left layouts.
@MainActor
public final class NormalIndicator: RefreshIndicator {
    /// Space between the arrow or spinner and the texts (MJRefresh: 25).
    public var labelInset = 25.0
    /// The texts beside the arrow.
    public let texts = StateIndicator()
    /// Whether an arrow shows the pull direction (an auto footer has none).
    public var showsArrow = true

    /// How long the arrow takes to turn (MJRefresh's fast animation).
    static let arrowTurnDuration = RefreshMachine.Duration.fast
    /// Spinner turns per second.
    static let spinnerSpeed = 1.0
    static let spinnerSpokes = 12

    public init() {}

    /// The arrow follows the state and the time, the texts the state: pull frames only move it.
    public var drawsPullingPercent: Bool { false }

    /// Frames come only for the spinner and while the arrow turns: any other change of state
    /// draws once (each frame redraws the window, which with a long sidebar costs milliseconds).
    public func isAnimating(_ model: IndicatorModel, at time: Double) -> Bool {
        model.state.isRefreshing
            || (showsArrow && Self.turnsArrow(from: model.previousState, to: model.state) && time - model.stateChangedAt < Self.arrowTurnDuration)
    }

    /// Whether the arrow turns when the state changes from `previous` to `state`.
    static func turnsArrow(from previous: RefreshState, to state: RefreshState) -> Bool {
        switch (previous, state) {
        case (_, .pulling), (.pulling, .idle): true
        default: false
        }
    }

    public func draw(_ context: IndicatorDrawContext) {
        let textWidth = texts.drawTexts(context)
        let model = context.model
        let centre = glyphCentre(context, textWidth: textWidth)
        if model.state.isRefreshing {
            drawSpinner(context, at: centre)
        } else if showsArrow, model.state != .noMoreData {
            drawArrow(context, at: centre, angle: arrowAngle(model, at: context.time))
        }
    }

    /// Where the arrow and spinner go: beside the widest text (above the stacked text on a side
    /// edge), or centred when there is none.
    private func glyphCentre(_ context: IndicatorDrawContext, textWidth: Double) -> (x: Double, y: Double) {
        guard textWidth > 0 else { return (context.width / 2, context.height / 2) }
        let shift = textWidth / 2 + labelInset
        guard context.model.edge.isVertical else {
            return (context.width / 2, context.height / 2 - shift)
        }
        return (context.width / 2 + (context.isRightToLeft ? shift : -shift), context.height / 2)
    }

    /// 0 points the arrow the way the content is pulled; pi once past the threshold.
    private func arrowAngle(_ model: IndicatorModel, at time: Double) -> Double {
        let progress = AnimationCurve.easeOutCubic.progress((time - model.stateChangedAt) / Self.arrowTurnDuration)
        switch (model.previousState, model.state) {
        case (_, .pulling): return Double.pi * progress
        case (.pulling, .idle): return Double.pi * (1 - progress)
        default: return 0
        }
    }

    private func drawArrow(_ context: IndicatorDrawContext, at centre: (x: Double, y: Double), angle: Double) {
        let cr = context.cairo
        let length = 20.0, head = 6.0
        cairo_save(cr)
        cairo_translate(cr, centre.x, centre.y)
        cairo_rotate(cr, baseRotation(context.model.edge) + angle)
        cairo_set_line_width(cr, 2)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        context.setForeground(alpha: 0.85)
        cairo_move_to(cr, 0, -length / 2)
        cairo_line_to(cr, 0, length / 2)
        cairo_move_to(cr, -head, length / 2 - head)
        cairo_line_to(cr, 0, length / 2)
        cairo_line_to(cr, head, length / 2 - head)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// The arrow points along the pull: down for a header, up for a footer, sideways for a trailer.
    private func baseRotation(_ edge: RefreshEdge) -> Double {
        switch edge {
        case .top: 0
        case .bottom: Double.pi
        case .left: -Double.pi / 2
        case .right: Double.pi / 2
        }
    }

    private func drawSpinner(_ context: IndicatorDrawContext, at centre: (x: Double, y: Double)) {
        let cr = context.cairo
        let spokes = Self.spinnerSpokes
        let turn = (context.time * Self.spinnerSpeed).truncatingRemainder(dividingBy: 1)
        let lead = Int(turn * Double(spokes))
        cairo_save(cr)
        cairo_translate(cr, centre.x, centre.y)
        cairo_set_line_width(cr, 2)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        for spoke in 0..<spokes {
            let age = (lead - spoke + spokes) % spokes
            let angle = Double(spoke) * 2 * Double.pi / Double(spokes)
            context.setForeground(alpha: 1 - Double(age) / Double(spokes) * 0.85)
            cairo_move_to(cr, 5 * sin(angle), -5 * cos(angle))
            cairo_line_to(cr, 9 * sin(angle), -9 * cos(angle))
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }
}
