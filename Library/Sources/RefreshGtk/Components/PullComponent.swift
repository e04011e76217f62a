import CGtk
import RefreshCore

/// A component pulled open past an edge and released: the header, back footer and trailer.
@MainActor
open class PullComponent: RefreshComponent {
    private let pullRules: Rules<RefreshMachine>

    /// A component of `extent` pixels along its axis (or the indicator's, when larger).
    public init(edge: RefreshEdge, extent: Double, indicator: any RefreshIndicator) {
        let size = indicator.preferredExtent.map { max($0, extent) } ?? extent
        pullRules = Rules(RefreshMachine(extent: size))
        super.init(edge: edge, rules: pullRules, indicator: indicator)
    }

    /// The component's rules.
    var machine: RefreshMachine { pullRules.machine }

    override func allocateIndicator(width: Double, height: Double, content: (x: Double, y: Double)) {
        // Placed by its own offset along its axis, not the content's: when components on opposite
        // edges both hold space (simultaneous refreshes), the content sits at the sum of both
        // and each indicator must still show at its own edge.
        let own = edge.contentDisplacement(offset)
        // Snapped to device pixels as the view snaps the content, so alone they stay flush.
        let scale = Double(max(1, gtk_widget_get_scale_factor(indicatorWidget)))
        let snapped = (x: (own.x * scale).rounded() / scale, y: (own.y * scale).rounded() / scale)
        let placed = edge.isVertical ? (x: content.x, y: snapped.y) : (x: snapped.x, y: content.y)
        super.allocateIndicator(width: width, height: height, content: placed)
    }

    /// Whether the indicator fades in with the pull and out after a refresh.
    public var automaticallyChangeAlpha: Bool {
        get { machine.automaticallyChangeAlpha }
        set {
            pullRules.machine.automaticallyChangeAlpha = newValue
            refreshIndicator()
        }
    }

    /// Chaining form of ``automaticallyChangeAlpha``.
    @discardableResult
    public func autoChangeTransparency(_ enabled: Bool) -> Self {
        automaticallyChangeAlpha = enabled
        return self
    }
}
