/// Turns drags and scroll deltas alike into one pull offset along an edge.
///
/// The tracker is input-agnostic in the manner of libadwaita's swipe tracker: an explicit phase,
/// every input checked against it first, and a single reset. It decides which events are a pull
/// (and must be claimed from the scrolled window) and applies the rubber band; the component's
/// state machine decides what the offset means.
public struct PullTracker: Sendable {
    /// Where a gesture stands.
    public enum Phase: Sendable, Equatable {
        /// Nothing under way.
        case none
        /// A drag went down; it is not yet known whether it is a pull.
        case pending
        /// A drag that is not a pull: it belongs to the content until released.
        case rejected
        /// A pull is under way, fed by a drag or by scroll deltas.
        case tracking(Source)
        /// A touchpad pull was released: deltas still coming in the pull direction are the
        /// fingers' or the driver's momentum, not a new pull.
        case coasting(lastEvent: Double)
    }

    /// Which kind of input feeds a pull.
    public enum Source: Sendable, Equatable { case drag, scroll }

    /// The component's extent along the pull axis (the header's height).
    public var extent: Double
    /// How far the rubber band can stretch: the viewport's extent.
    public var limit: Double
    /// Pixels a drag travels before it is decided.
    public var dragThreshold: Double
    /// When set, the pull stops here with no rubber band: an auto footer reveals, never stretches.
    public var maximumOffset: Double?

    public private(set) var phase: Phase = .none
    /// Whether this input source has ever reported scroll-end; until it does, a pause ends a pull.
    public private(set) var sourceReportsScrollEnd = false

    private var startDistance = 0.0
    private var distance = 0.0
    private var lastScrollTime = 0.0
    private var velocity = VelocityEstimator()

    public init(extent: Double, limit: Double, dragThreshold: Double = PullTuning.defaultDragThreshold) {
        self.extent = extent
        self.limit = limit
        self.dragThreshold = dragThreshold
    }

    /// The current pulled offset, rubber band applied.
    public var offset: Double {
        if let maximumOffset { return min(distance, maximumOffset) }
        return RubberBand.offset(forDistance: distance, extent: extent, limit: limit)
    }

    public var isTracking: Bool {
        if case .tracking = phase { return true }
        return false
    }

    /// Interprets one input, given the component's current displayed offset (its held space).
    public mutating func handle(_ input: PullInput, heldOffset: Double, canStartPull: Bool = true) -> PullResponse {
        switch input {
        case .dragBegan:
            guard phase == .none || isCoasting else { return .pass }
            phase = .pending
            return .pass

        case let .dragMoved(along, across, atEdge, time):
            return dragMoved(along: along, across: across, atEdge: atEdge, heldOffset: heldOffset,
                             canStartPull: canStartPull, time: time)

        case let .dragEnded(time):
            guard phase == .tracking(.drag) else {
                if phase == .pending || phase == .rejected { reset() }
                return .pass
            }
            let releaseVelocity = velocity.velocity(at: time)
            reset()
            return PullResponse(claimed: true, updates: [.released(velocity: releaseVelocity)])

        case .scrollBegan:
            return .pass

        case let .scrolled(delta, source, atEdge, time):
            return scrolled(delta: delta, source: source, atEdge: atEdge, heldOffset: heldOffset,
                            canStartPull: canStartPull, time: time)

        case let .scrollEnded(time):
            sourceReportsScrollEnd = true
            guard phase == .tracking(.scroll) else { return .pass }
            return releaseScroll(at: time)

        case let .tick(time):
            guard phase == .tracking(.scroll), !sourceReportsScrollEnd,
                  time - lastScrollTime >= PullTuning.scrollPause else { return .pass }
            return releaseScroll(at: time)
        }
    }

    /// Abandons any gesture, as when the widget is unmapped.
    public mutating func reset() {
        phase = .none
        startDistance = 0
        distance = 0
        velocity.reset()
    }

    private func clamped(_ value: Double) -> Double {
        min(max(0, value), maximumOffset ?? .infinity)
    }

    private var isCoasting: Bool {
        if case .coasting = phase { return true }
        return false
    }

    private mutating func dragMoved(along: Double, across: Double, atEdge: Bool, heldOffset: Double,
                                    canStartPull: Bool, time: Double) -> PullResponse {
        switch phase {
        case .pending:
            guard max(abs(along), abs(across)) >= dragThreshold else { return .pass }
            let pullsOpen = along > 0 && atEdge && canStartPull
            let movesHeldSpace = heldOffset > 0 && abs(along) >= abs(across)
            guard (pullsOpen && abs(along) >= abs(across)) || movesHeldSpace else {
                phase = .rejected
                return .pass
            }
            phase = .tracking(.drag)
            startDistance = RubberBand.distance(forOffset: heldOffset, extent: extent, limit: limit)
            distance = clamped(startDistance + along)
            velocity.record(position: distance, at: time)
            return PullResponse(claimed: true, updates: [.began(offset: heldOffset), .moved(offset: offset)])
        case .tracking(.drag):
            distance = clamped(startDistance + along)
            velocity.record(position: distance, at: time)
            return PullResponse(claimed: true, updates: [.moved(offset: offset)])
        default:
            return .pass
        }
    }

    private mutating func scrolled(delta: Double, source: ScrollSource, atEdge: Bool, heldOffset: Double,
                                   canStartPull: Bool, time: Double) -> PullResponse {
        if case let .coasting(lastEvent) = phase {
            if delta > 0, time - lastEvent < PullTuning.scrollPause {
                phase = .coasting(lastEvent: time)
                return PullResponse(claimed: true, updates: [])
            }
            phase = .none
        }
        switch phase {
        case .none:
            let pullsOpen = delta > 0 && atEdge && canStartPull && source == .continuous
            let movesHeldSpace = heldOffset > 0 && (atEdge || delta < 0)
            guard pullsOpen || movesHeldSpace else { return .pass }
            phase = .tracking(.scroll)
            startDistance = RubberBand.distance(forOffset: heldOffset, extent: extent, limit: limit)
            distance = startDistance
            velocity.reset()
            let began = PullUpdate.began(offset: heldOffset)
            var response = followScroll(delta: delta, source: source, time: time)
            response.updates.insert(began, at: 0)
            return response
        case .tracking(.scroll):
            return followScroll(delta: delta, source: source, time: time)
        default:
            return .pass
        }
    }

    private mutating func followScroll(delta: Double, source: ScrollSource, time: Double) -> PullResponse {
        lastScrollTime = time
        // A wheel may move the held space but never stretch past the component's extent.
        distance = clamped(distance + delta)
        if source == .wheel { distance = min(distance, extent) }
        velocity.record(position: distance, at: time)
        var updates: [PullUpdate] = [.moved(offset: offset)]
        if distance == 0 || source == .wheel {
            // Back at the edge (or a wheel step): the pull is over and further deltas scroll the content.
            updates.append(.released(velocity: 0))
            phase = .none
            startDistance = 0
            distance = 0
            velocity.reset()
        }
        return PullResponse(claimed: true, updates: updates)
    }

    private mutating func releaseScroll(at time: Double) -> PullResponse {
        let releaseVelocity = velocity.velocity(at: time)
        reset()
        phase = .coasting(lastEvent: time)
        return PullResponse(claimed: false, updates: [.released(velocity: releaseVelocity)])
    }
}
