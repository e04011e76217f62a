import CGtk
import Foundation
import RefreshCore

/// An example of an app's own indicator, usable on any component: a ring that fills as the
/// pull goes on, closes and thickens once releasing would refresh, and spins while refreshing.
///
/// Everything it knows comes in the ``IndicatorModel`` (state, pullingPercent, edge); all it
/// does is draw with Cairo. It shows no text: assistive technology still reads the state's title.
@MainActor
public final class ProgressRingIndicator: RefreshIndicator {
    /// The ring's radius in pixels.
    public var radius = 13.0
    /// The stroke width at rest; the ring thickens by half once pulled past the threshold.
    public var lineWidth = 3.0
    /// Turns per second while refreshing.
    public var spinSpeed = 1.2
    /// How much of the circle the spinning arc covers.
    static let spinningArc = 0.3

    public init() {}

    public func isAnimating(_ model: IndicatorModel, at time: Double) -> Bool { model.state.isRefreshing }

    public func draw(_ context: IndicatorDrawContext) {
        let cr = context.cairo
        let model = context.model
        let centre = (x: context.width / 2, y: context.height / 2)
        let top = -Double.pi / 2
        cairo_save(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        // The faint track shows where the ring will close.
        cairo_set_line_width(cr, lineWidth)
        context.setForeground(alpha: 0.15)
        cairo_arc(cr, centre.x, centre.y, radius, 0, 2 * Double.pi)
        cairo_stroke(cr)
        switch model.state {
        case .refreshing, .willRefresh:
            let start = top + 2 * Double.pi * (context.time * spinSpeed).truncatingRemainder(dividingBy: 1)
            cairo_set_line_width(cr, lineWidth * 1.5)
            context.setForeground()
            cairo_arc(cr, centre.x, centre.y, radius, start, start + 2 * Double.pi * Self.spinningArc)
            cairo_stroke(cr)
        case .pulling:
            cairo_set_line_width(cr, lineWidth * 1.5)
            context.setForeground()
            cairo_arc(cr, centre.x, centre.y, radius, 0, 2 * Double.pi)
            cairo_stroke(cr)
        case .idle:
            let fill = min(max(model.pullingPercent, 0), 1)
            if fill > 0 {
                cairo_set_line_width(cr, lineWidth)
                context.setForeground(alpha: 0.4 + 0.6 * fill)
                cairo_arc(cr, centre.x, centre.y, radius, top, top + 2 * Double.pi * fill)
                cairo_stroke(cr)
            }
        case .noMoreData:
            // A dot in the empty ring: nothing more will come.
            context.setForeground(alpha: 0.6)
            cairo_arc(cr, centre.x, centre.y, lineWidth, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        cairo_restore(cr)
    }
}
