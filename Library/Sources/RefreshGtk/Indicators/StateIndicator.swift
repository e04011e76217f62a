import CGtk
import RefreshCore

/// Draws the state text and the last-updated line, each in half the height (MJRefresh's State
/// variants); a lone text takes the whole height. On a side edge the title runs one character
/// per line.
@MainActor
public final class StateIndicator: RefreshIndicator {
    /// Hides the state text.
    public var titleHidden = false
    /// Text size in points (MJRefresh: bold 14).
    public var fontSize = 14.0

    public init() {}

    public func draw(_ context: IndicatorDrawContext) {
        _ = drawTexts(context)
    }

    public func isAnimating(_ model: IndicatorModel, at time: Double) -> Bool { false }

    /// The texts follow the state, not the percent: pull frames only move the indicator
    /// (laying the texts out again cost about 60 µs of every pull frame in `refresh-bench`).
    public var drawsPullingPercent: Bool { false }

    /// Draws the texts and returns how much room they take where an arrow goes beside them:
    /// the widest line's width, or on a side edge the height of the stacked title.
    func drawTexts(_ context: IndicatorDrawContext) -> Double {
        let model = context.model
        guard model.edge.isVertical else {
            return drawVertical(context, text: titleHidden ? "" : model.title)
        }
        let lines = [titleHidden ? nil : (model.title, 1.0), model.subtitle.map { ($0, 0.7) }]
            .compactMap { $0 }.filter { !$0.0.isEmpty }
        let slot = context.height / Double(max(lines.count, 1))
        var widest = 0.0
        for (index, line) in lines.enumerated() {
            let layoutRef = context.layout(line.0, points: fontSize)
            defer { withExtendedLifetime(layoutRef) {} }
            let layout = layoutRef.pointer
            var width: Int32 = 0, height: Int32 = 0
            pango_layout_get_pixel_size(layout, &width, &height)
            widest = max(widest, Double(width))
            let x = ((context.width - Double(width)) / 2).rounded()
            let y = (slot * Double(index) + (slot - Double(height)) / 2).rounded()
            cairo_move_to(context.cairo, x, y)
            context.setForeground(alpha: line.1)
            pango_cairo_show_layout(context.cairo, layout)
        }
        return widest
    }

    private func drawVertical(_ context: IndicatorDrawContext, text: String) -> Double {
        guard !text.isEmpty else { return 0 }
        let stacked = text.map(String.init).joined(separator: "\n")
        let layoutRef = context.layout(stacked, points: fontSize)
        defer { withExtendedLifetime(layoutRef) {} }
        let layout = layoutRef.pointer
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        cairo_move_to(context.cairo, ((context.width - Double(width)) / 2).rounded(),
                      ((context.height - Double(height)) / 2).rounded())
        context.setForeground()
        pango_cairo_show_layout(context.cairo, layout)
        return Double(height)
    }
}
