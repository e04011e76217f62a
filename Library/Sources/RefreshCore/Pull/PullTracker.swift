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
        case coasting(releasedAt: Double, lastEvent: Double)
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

    private var startDistance = 0.0
    private var distance = 0.0
    private var velocity = VelocityEstimator()
    /// Whether the device feeding a scroll pull sends scroll-end; if not, a pause ends the pull.
    private var scrollReportsEnd = false
    /// Quiet time since the last scroll delta, counted by pause checks (`tick`).
    private var quietTime = 0.0
    private var lastQuietCheck = 0.0

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

    /// A scroll pull is under way from a device that never says when the fingers lift: only a
    /// pause, measured by `tick` inputs, can end it.
    public var needsPauseDetection: Bool { phase == .tracking(.scroll) && !scrollReportsEnd }

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
            guard phase == .tracking(.scroll) else { return .pass }
            return releaseScroll(at: time)

        case let .tick(time):
            guard needsPauseDetection else { return .pass }
            // A check that comes late found the main loop stalled, with input possibly queued
            // behind the stall: only the time the loop was free to dispatch it counts as quiet.
            quietTime += min(max(0, time - lastQuietCheck), PullTuning.longestQuietStep)
            lastQuietCheck = time
            guard quietTime >= PullTuning.scrollPause else { return .pass }
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
        if case let .coasting(releasedAt, lastEvent) = phase {
            // A delta that happened before the release was queued behind a slow frame: the
            // fingers never lifted, so it is no momentum.
            if delta > 0, time >= releasedAt, time - lastEvent < PullTuning.scrollPause {
                phase = .coasting(releasedAt: releasedAt, lastEvent: time)
                return PullResponse(claimed: true, updates: [])
            }
            phase = .none
        }
        switch phase {
        case .none:
            let pullsOpen = delta > 0 && atEdge && canStartPull && source != .wheel
            let movesHeldSpace = heldOffset > 0 && (atEdge || delta < 0)
            guard pullsOpen || movesHeldSpace else { return .pass }
            phase = .tracking(.scroll)
            scrollReportsEnd = source.reportsEnd
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
        quietTime = 0
        lastQuietCheck = time
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
        phase = .coasting(releasedAt: time, lastEvent: time)
        return PullResponse(claimed: false, updates: [.released(velocity: releaseVelocity)])
    }
}
