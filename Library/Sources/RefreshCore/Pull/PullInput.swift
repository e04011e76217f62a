/// One input event, reduced to the axis a component pulls along.
///
/// Positive values point the way the content moves when pulled: down for a header, up for a
/// footer, towards the leading edge for a trailer. Times are in seconds on any monotonic clock.
public enum PullInput: Sendable, Equatable {
    /// A finger or mouse button went down.
    case dragBegan(time: Double)
    /// The pointer moved `along` the pull axis and `across` it since the press.
    case dragMoved(along: Double, across: Double, atEdge: Bool, time: Double)
    /// The finger or button was released.
    case dragEnded(time: Double)
    /// The drag was cancelled (another gesture took the sequence, a grab broke it): the pull
    /// under way is abandoned, not released.
    case dragCancelled(time: Double)
    /// A touchpad scroll sequence started (fingers down or first smooth event).
    case scrollBegan(time: Double)
    /// A scroll delta in pixels along the pull axis.
    case scrolled(delta: Double, source: ScrollSource, atEdge: Bool, time: Double)
    /// The touchpad reported that the fingers lifted.
    case scrollEnded(time: Double)
    /// A periodic check while a pull from a source without scroll-end is under way; lets a
    /// pause end it.
    case tick(time: Double)
}

/// What produced a scroll delta.
public enum ScrollSource: Sendable, Equatable {
    /// Continuous deltas that follow the fingers (touchpad, trackpoint, or a synthesized
    /// sequence). `reportsEnd`: the device sends scroll-end when the fingers lift; when it does
    /// not, only a pause can end a pull.
    case continuous(reportsEnd: Bool)
    /// Mouse-wheel clicks: they never start a pull by accident.
    case wheel

    /// Whether scroll-end, and not a pause, ends a pull from this source.
    public var reportsEnd: Bool {
        if case .continuous(reportsEnd: true) = self { return true }
        return false
    }
}

/// The component's size and room for one input: read from its machine and its view each time,
/// never kept in step by hand.
public struct PullGeometry: Sendable, Equatable {
    /// The component's extent along the pull axis (the header's height).
    public var extent: Double
    /// How far the rubber band can stretch: the viewport's extent.
    public var limit: Double

    public init(extent: Double, limit: Double) {
        self.extent = extent
        self.limit = limit
    }
}

/// What the tracker tells the component after an input.
public enum PullUpdate: Sendable, Equatable {
    /// User input began: a press, a touchpad sequence, a wheel click, or a touchpad resuming
    /// after a pause on a driver that never sends scroll-end. Whether or not it pulls.
    case gestureBegan
    /// The press or touchpad sequence ended; `movingOpen` when it last moved the way that pulls open.
    case gestureEnded(movingOpen: Bool)
    /// A pull started from this offset.
    case began(offset: Double)
    /// The pulled offset changed.
    case moved(offset: Double)
    /// The pull ended with the content moving at this velocity, in pixels per second along
    /// the pull axis (positive pulls open).
    case released(velocity: Double)
    /// The pull was abandoned.
    case cancelled
}

/// The tracker's answer to one input: whether the widget should stop the event, and the updates.
public struct PullResponse: Sendable, Equatable {
    /// The event belongs to the pull: stop it so the scrolled window does not scroll too.
    public var claimed: Bool
    public var updates: [PullUpdate]

    public static let pass = PullResponse(claimed: false, updates: [])

    public init(claimed: Bool, updates: [PullUpdate]) {
        self.claimed = claimed
        self.updates = updates
    }
}
