import CGtk
import Foundation
import RefreshCore

/// MJRefresh's Normal look: an arrow that turns when the pull passes the threshold, a spinner
/// while refreshing, and the texts. The arrow sits `labelInset` before the texts, or after them
/// in right-to-left layouts.
@MainActor
public final class NormalIndicator: RefreshIndicator {
    /// How the arrow or spinner and the texts are laid out.
    public enum Arrangement: Sendable {
        /// MJRefresh's: the state text above the last-updated line, centred, the arrow beside them.
        case stacked
        /// GNOME's: one line, centred as a whole: a small arrow or spinner, the state text, then
        /// the last-updated time as a dim caption.
        case inline
    }

    /// How the glyph and texts are laid out; on a side edge they are always stacked.
    public var arrangement = Arrangement.stacked
    /// Space between the arrow or spinner and the texts (MJRefresh: 25; inline: 8).
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
        if arrangement == .inline, context.model.edge.isVertical { return drawInline(context) }
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

    /// The inline glyph's size against the stacked one's: 14 px, as a symbolic icon's drawing.
    static let inlineGlyphScale = 0.7
    /// Space between the state text and the caption on one line.
    static let inlineCaptionSpacing = 12.0

    /// One line centred as a whole: the glyph, `labelInset`, the state text, then the caption;
    /// mirrored in right-to-left layouts.
    private func drawInline(_ context: IndicatorDrawContext) {
        let model = context.model
        let scale = Self.inlineGlyphScale
        let glyph = showsArrow || model.state.isRefreshing ? 20 * scale : 0
        let title = texts.titleHidden || model.title.isEmpty ? nil : context.layout(model.title, points: texts.fontSize, bold: texts.isBold)
        let caption = model.subtitle.flatMap { $0.isEmpty ? nil : context.layout($0, points: texts.fontSize * StateIndicator.captionScale, bold: false) }
        func size(_ layout: ObjectRef<OpaquePointer>?) -> (width: Double, height: Double) {
            guard let layout else { return (0, 0) }
            var width: Int32 = 0, height: Int32 = 0
            pango_layout_get_pixel_size(layout.pointer, &width, &height)
            return (Double(width), Double(height))
        }
        let (titleSize, captionSize) = (size(title), size(caption))
        // The pieces in reading order, each with its width and what draws it at a left edge.
        var pieces: [(width: Double, draw: (Double) -> Void)] = []
        if glyph > 0, model.state != .noMoreData {
            pieces.append((glyph, { [self] x in
                let centre = (x: x + glyph / 2, y: context.height / 2)
                if model.state.isRefreshing {
                    drawSpinner(context, at: centre, scale: scale)
                } else {
                    drawArrow(context, at: centre, angle: arrowAngle(model, at: context.time), scale: scale)
                }
            }))
        }
        for (layout, measured, alpha) in [(title, titleSize, 1.0), (caption, captionSize, StateIndicator.captionAlpha)] {
            guard let layout else { continue }
            pieces.append((measured.width, { x in
                cairo_move_to(context.cairo, x.rounded(), ((context.height - measured.height) / 2).rounded())
                context.setForeground(alpha: alpha)
                pango_cairo_show_layout(context.cairo, layout.pointer)
            }))
        }
        let gaps = pieces.indices.dropFirst().map { index in
            index == 1 && glyph > 0 && model.state != .noMoreData ? labelInset : Self.inlineCaptionSpacing
        }
        let total = pieces.map(\.width).reduce(0, +) + gaps.reduce(0, +)
        var x = ((context.width - total) / 2).rounded()
        for (index, piece) in (context.isRightToLeft ? Array(pieces.reversed()) : pieces).enumerated() {
            if index > 0 { x += context.isRightToLeft ? gaps[gaps.count - index] : gaps[index - 1] }
            piece.draw(x)
            x += piece.width
        }
    }

    private func drawArrow(_ context: IndicatorDrawContext, at centre: (x: Double, y: Double), angle: Double, scale: Double = 1) {
        let cr = context.cairo
        let length = 20.0 * scale, head = 6.0 * scale
        cairo_save(cr)
        cairo_translate(cr, centre.x, centre.y)
        cairo_rotate(cr, baseRotation(context.model.edge) + angle)
        cairo_set_line_width(cr, 2 * max(scale, 0.75))
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

    private func drawSpinner(_ context: IndicatorDrawContext, at centre: (x: Double, y: Double), scale: Double = 1) {
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
            cairo_move_to(cr, 5 * scale * sin(angle), -5 * scale * cos(angle))
            cairo_line_to(cr, 9 * scale * sin(angle), -9 * scale * cos(angle))
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }
}
