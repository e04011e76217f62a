import CGtk
import Foundation
import RefreshCore

/// What an indicator shows: everything it may draw from, computed by its component.
public struct IndicatorModel: Sendable, Equatable {
    public var state: RefreshState
    /// The state before the last change: lets an arrow turn back the way it came.
    public var previousState: RefreshState
    public var pullingPercent: Double
    /// The edge the component sits on: a back footer's arrow points up, a trailer's text runs down.
    public var edge: RefreshEdge
    /// The translated title for the state.
    public var title: String
    /// The last-updated line, for headers that show one.
    public var subtitle: String?
    /// When the state last changed, on ``MainThread/now``'s clock.
    public var stateChangedAt: Double

    public init(state: RefreshState, previousState: RefreshState = .idle, pullingPercent: Double,
                edge: RefreshEdge, title: String, subtitle: String?, stateChangedAt: Double) {
        self.state = state
        self.previousState = previousState
        self.pullingPercent = pullingPercent
        self.edge = edge
        self.title = title
        self.subtitle = subtitle
        self.stateChangedAt = stateChangedAt
    }
}

/// The surface and facts an indicator draws with for one frame.
@MainActor
public struct IndicatorDrawContext {
    /// The `cairo_t` to draw on, in widget coordinates, already scaled for the display.
    public let cairo: OpaquePointer
    /// The drawing widget: for Pango layouts in its font and text direction.
    public let widget: UnsafeMutablePointer<GtkWidget>
    public let width: Double
    public let height: Double
    /// The frame time in seconds on ``MainThread/now``'s clock, for time-based animations.
    public let time: Double
    public let model: IndicatorModel
    /// The theme's foreground colour for this widget (dark themes included).
    public let foreground: GdkRGBA
    public var isRightToLeft: Bool { gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL }

    /// A context for drawing an indicator outside its component, on any Cairo surface.
    ///
    /// Components make their own; this is public so that an indicator can be drawn elsewhere
    /// with exactly the code the component uses: an app's own header, a preview, or
    /// `refresh-bench`, which times one frame of a header into an offscreen surface.
    public init(cairo: OpaquePointer, widget: UnsafeMutablePointer<GtkWidget>, width: Double, height: Double,
                time: Double, model: IndicatorModel, foreground: GdkRGBA) {
        self.cairo = cairo
        self.widget = widget
        self.width = width
        self.height = height
        self.time = time
        self.model = model
        self.foreground = foreground
    }

    /// A new Pango layout in the widget's font with `text`, bold at `points` when asked.
    public func layout(_ text: String, points: Double = 14, bold: Bool = true) -> ObjectRef<OpaquePointer> {
        let layout = gtk_widget_create_pango_layout(widget, text)!
        let font = pango_font_description_new()!
        if let base = pango_context_get_font_description(pango_layout_get_context(layout)) {
            pango_font_description_merge(font, base, 1)
        }
        pango_font_description_set_size(font, gint(points * Double(PANGO_SCALE)))
        pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        return ObjectRef(takingOwnership: layout)
    }

    /// Sets the source to the foreground colour at `alpha`.
    public func setForeground(alpha: Double = 1) {
        cairo_set_source_rgba(cairo, Double(foreground.red), Double(foreground.green),
                              Double(foreground.blue), Double(foreground.alpha) * alpha)
    }
}

/// Draws a component's indicator. The built-in indicators conform; so can an app's own.
@MainActor
public protocol RefreshIndicator: AnyObject {
    /// The extent the indicator needs along the pull axis, or nil for the component's default.
    var preferredExtent: Double? { get }
    /// Draws one frame.
    func draw(_ context: IndicatorDrawContext)
    /// Whether frames must keep coming (a spinner turning, an arrow rotating) at `time`.
    func isAnimating(_ model: IndicatorModel, at time: Double) -> Bool
    /// Whether a frame depends on ``IndicatorModel/pullingPercent``. When it does not, a pull
    /// step that changes nothing else moves the indicator without drawing it again: every pull
    /// frame otherwise lays its texts out anew. True unless an indicator says otherwise.
    var drawsPullingPercent: Bool { get }
}

extension RefreshIndicator {
    public var preferredExtent: Double? { nil }
    public var drawsPullingPercent: Bool { true }
}
