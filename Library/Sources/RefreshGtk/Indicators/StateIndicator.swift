import CGtk
import RefreshCore

/// Draws the state text and the last-updated line, each in half the height (MJRefresh's State
/// variants); a lone text takes the whole height. On a side edge the title runs one character
/// per line. The type is GNOME's: the state in regular body text, the last update as a dim
/// caption below it.
@MainActor
public final class StateIndicator: RefreshIndicator {
    /// Hides the state text.
    public var titleHidden = false
    /// The state text's size in points (GNOME's body text; MJRefresh: 14); the last-updated
    /// caption is drawn at 0.82 of it, as Adwaita's caption style is.
    public var fontSize = 11.0
    /// Whether the state text is bold, as MJRefresh draws it; GNOME's body text is regular.
    public var isBold = false

    /// The caption's size against the state text's (Adwaita's `.caption`).
    static let captionScale = 0.82
    /// The caption's opacity (Adwaita's `.dim-label`).
    static let captionAlpha = 0.55

    /// The layouts of the texts last drawn: laid out again only when a text, the size or the
    /// widget's Pango context (its font, direction or settings) changes. While the arrow turns the
    /// indicator is drawn on every frame, and laying the texts out was most of such a drawing.
    private var layouts: [LayoutKey: ObjectRef<OpaquePointer>] = [:]

    private struct LayoutKey: Hashable {
        let text: String
        let points: Double
        let bold: Bool
        /// The widget's Pango context, held by the layout, and its serial, which changes with it.
        let context: OpaquePointer
        let serial: guint
    }

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
        let title = (text: model.title, points: fontSize, bold: isBold, alpha: 1.0)
        let caption = model.subtitle.map { (text: $0, points: fontSize * Self.captionScale, bold: false, alpha: Self.captionAlpha) }
        let lines = [titleHidden ? nil : title, caption].compactMap { $0 }.filter { !$0.text.isEmpty }
        let slot = context.height / Double(max(lines.count, 1))
        var widest = 0.0
        var drawn: [LayoutKey: ObjectRef<OpaquePointer>] = [:]
        defer { layouts = drawn }
        for (index, line) in lines.enumerated() {
            let layout = layout(line.text, points: line.points, bold: line.bold, context, keepingIn: &drawn)
            var width: Int32 = 0, height: Int32 = 0
            pango_layout_get_pixel_size(layout, &width, &height)
            widest = max(widest, Double(width))
            let x = ((context.width - Double(width)) / 2).rounded()
            let y = (slot * Double(index) + (slot - Double(height)) / 2).rounded()
            cairo_move_to(context.cairo, x, y)
            context.setForeground(alpha: line.alpha)
            pango_cairo_show_layout(context.cairo, layout)
        }
        return widest
    }

    private func drawVertical(_ context: IndicatorDrawContext, text: String) -> Double {
        guard !text.isEmpty else { return 0 }
        let stacked = text.map(String.init).joined(separator: "\n")
        var drawn: [LayoutKey: ObjectRef<OpaquePointer>] = [:]
        defer { layouts = drawn }
        let layout = layout(stacked, points: fontSize, bold: isBold, context, keepingIn: &drawn)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        cairo_move_to(context.cairo, ((context.width - Double(width)) / 2).rounded(),
                      ((context.height - Double(height)) / 2).rounded())
        context.setForeground()
        pango_cairo_show_layout(context.cairo, layout)
        return Double(height)
    }

    /// The layout of `text` in the widget's font at `points`: the one drawn last time when
    /// nothing it depends on changed, else a new one. It is kept in `kept` for the next drawing.
    private func layout(_ text: String, points: Double, bold: Bool, _ context: IndicatorDrawContext,
                        keepingIn kept: inout [LayoutKey: ObjectRef<OpaquePointer>]) -> OpaquePointer {
        let pango = gtk_widget_get_pango_context(context.widget)!
        let key = LayoutKey(text: text, points: points, bold: bold, context: pango, serial: pango_context_get_serial(pango))
        let layout = layouts[key] ?? context.layout(text, points: points, bold: bold)
        kept[key] = layout
        return layout.pointer
    }
}
