import CGtk
import RefreshCore

/// A component pulled open past an edge and released: the header, back footer and trailer.
@MainActor
open class PullComponent: RefreshComponent {
    var machine: RefreshMachine

    /// A component of `extent` pixels along its axis (or the indicator's, when larger).
    public override init(edge: RefreshEdge, extent: Double, indicator: any RefreshIndicator) {
        let size = indicator.preferredExtent.map { max($0, extent) } ?? extent
        machine = RefreshMachine(extent: size)
        super.init(edge: edge, extent: size, indicator: indicator)
    }

    override var logic: any RefreshLogic { machine }

    override func process(_ event: RefreshEvent) -> [RefreshEffect] {
        machine.handle(event)
    }

    /// Whether the indicator fades in with the pull and out after a refresh.
    public var automaticallyChangeAlpha: Bool {
        get { machine.automaticallyChangeAlpha }
        set {
            machine.automaticallyChangeAlpha = newValue
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
