/// What the windowing system says about the device behind a scroll event.
///
/// The GTK layer reads these facts from the event; what they mean for a pull is decided here.
public struct ScrollDevice: Sendable, Equatable {
    /// The windowing system the event came through.
    public enum Backend: Sendable, Equatable { case wayland, x11, other }
    /// The kind of device, as the windowing system classifies it.
    public enum Kind: Sendable, Equatable { case touchpad, trackpoint, mouse, touchscreen, pen, other }

    public var backend: Backend
    public var kind: Kind
    /// The event is a wheel click with a direction, not a smooth delta.
    public var isDiscrete: Bool
    /// Smooth deltas counted in wheel steps rather than pixels.
    public var countsWheelSteps: Bool

    public init(backend: Backend, kind: Kind, isDiscrete: Bool, countsWheelSteps: Bool) {
        self.backend = backend
        self.kind = kind
        self.isDiscrete = isDiscrete
        self.countsWheelSteps = countsWheelSteps
    }

    /// How deltas from this device pull.
    ///
    /// Wayland ends every finger and continuous (trackpoint) scroll with `axis_stop`, and the
    /// libinput X driver ends a touchpad scroll with a zero delta that GDK turns into scroll-end;
    /// any other continuous source may never say that the fingers lifted.
    public var source: ScrollSource {
        if isDiscrete || (countsWheelSteps && kind == .mouse) { return .wheel }
        switch (backend, kind) {
        case (.wayland, .touchpad), (.wayland, .trackpoint), (.x11, .touchpad):
            return .continuous(reportsEnd: true)
        default:
            return .continuous(reportsEnd: false)
        }
    }
}
