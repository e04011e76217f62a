/// Turns drags and scroll deltas alike into one pull offset along an edge.
///
/// The tracker is input-agnostic in the manner of libadwaita's swipe tracker: an explicit phase,
/// every input checked against it first, and a single reset. It decides which events are a pull
/// (and must be claimed from the scrolled window), applies the rubber band and measures the
/// release velocity; the component's state machine decides what the offset means. It also tells
/// where each gesture begins and ends, pull or not, which an auto footer's budget counts.
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

    /// Pixels a drag travels before it is decided.
    public var dragThreshold: Double
    /// Whether a pull stretches past the extent; if not it stops there: an auto footer reveals,
    /// never stretches.
    public let stretches: Bool

    public private(set) var phase: Phase = .none
    /// The geometry of the latest input.
    public private(set) var geometry = PullGeometry(extent: 0, limit: 0)

    private var startDistance = 0.0
    private var distance = 0.0
    private var velocity = VelocityEstimator()
    /// Whether the device feeding a scroll pull sends scroll-end; if not, a pause ends the pull.
    private var scrollReportsEnd = false
    /// Quiet time since the last scroll delta, counted by pause checks (`tick`).
    private var quietTime = 0.0
    private var lastQuietCheck = 0.0
    /// When the latest scroll delta happened, pull or not.
    private var lastScrollTime = -Double.infinity
    /// The latest motion along the pull axis: a drag's translation or a scroll delta.
    private var lastMovement = 0.0

    public init(dragThreshold: Double = PullTuning.defaultDragThreshold, stretches: Bool = true) {
        self.dragThreshold = dragThreshold
        self.stretches = stretches
    }

    /// The current pulled offset, rubber band applied.
    public var offset: Double { displayed(distance) }

    public var isTracking: Bool {
        if case .tracking = phase { return true }
        return false
    }

    /// A scroll pull is under way from a device that never says when the fingers lift: only a
    /// pause, measured by `tick` inputs, can end it.
    public var needsPauseDetection: Bool { phase == .tracking(.scroll) && !scrollReportsEnd }

    /// Interprets one input, given the component's geometry and its current displayed offset
    /// (its held space), and whether a new pull may start.
    public mutating func handle(_ input: PullInput, geometry: PullGeometry, heldOffset: Double,
                                canStartPull: Bool = true) -> PullResponse {
        self.geometry = geometry
        switch input {
        case .dragBegan:
            lastMovement = 0
            let began = PullResponse(claimed: false, updates: [.gestureBegan])
            guard phase == .none || isCoasting else { return began }
            phase = .pending
            return began

        case let .dragMoved(along, across, atEdge, time):
            lastMovement = along
            return dragMoved(along: along, across: across, atEdge: atEdge, heldOffset: heldOffset,
                             canStartPull: canStartPull, time: time)

        case let .dragEnded(time):
            let ended = PullUpdate.gestureEnded(movingOpen: lastMovement > 0)
            guard phase == .tracking(.drag) else {
                if phase == .pending || phase == .rejected { reset() }
                return PullResponse(claimed: false, updates: [ended])
            }
            let releaseVelocity = velocity.velocity(at: time)
            reset()
            return PullResponse(claimed: true, updates: [.released(velocity: releaseVelocity), ended])

        case .dragCancelled:
            guard phase == .tracking(.drag) else {
                if phase == .pending || phase == .rejected { reset() }
                return .pass
            }
            reset()
            return PullResponse(claimed: true, updates: [.cancelled])

        case .scrollBegan:
            lastMovement = 0
            return PullResponse(claimed: false, updates: [.gestureBegan])

        case let .scrolled(delta, source, atEdge, time):
            // A wheel click is input of its own; so is a touchpad resuming after a pause on a
            // driver that never sends scroll-end (and so no new scroll-begin either).
            let resumes = source == .wheel || (!source.reportsEnd && Self.isPause(time - lastScrollTime))
            lastScrollTime = time
            lastMovement = delta
            var response = scrolled(delta: delta, source: source, atEdge: atEdge, heldOffset: heldOffset,
                                    canStartPull: canStartPull, time: time)
            if resumes { response.updates.insert(.gestureBegan, at: 0) }
            return response

        case let .scrollEnded(time):
            let ended = PullUpdate.gestureEnded(movingOpen: lastMovement > 0)
            guard phase == .tracking(.scroll) else { return PullResponse(claimed: false, updates: [ended]) }
            var response = releaseScroll(at: time)
            response.updates.append(ended)
            return response

        case let .tick(time):
            guard needsPauseDetection else { return .pass }
            // A check that comes late found the main loop stalled, with input possibly queued
            // behind the stall: only the time the loop was free to dispatch it counts as quiet.
            quietTime += min(max(0, time - lastQuietCheck), PullTuning.longestQuietStep)
            lastQuietCheck = time
            guard Self.isPause(quietTime) else { return .pass }
            return releaseScroll(at: time)
        }
    }

    /// The one pause rule: scroll input that stayed `quiet` this many seconds is no longer the
    /// same motion (the fingers lifted, or the driver's coasting ended).
    static func isPause(_ quiet: Double) -> Bool {
        quiet >= PullTuning.scrollPause
    }

    /// Abandons any gesture, as when the widget is unmapped.
    public mutating func reset() {
        phase = .none
        startDistance = 0
        distance = 0
        velocity.reset()
    }

    private func clamped(_ value: Double) -> Double {
        min(max(0, value), stretches ? .infinity : geometry.extent)
    }

    /// The offset shown for a finger `distance` past the edge.
    private func displayed(_ distance: Double) -> Double {
        guard stretches else { return min(distance, geometry.extent) }
        return RubberBand.offset(forDistance: distance, extent: geometry.extent, limit: geometry.limit)
    }

    /// The finger distance that shows `offset`.
    private func fingerDistance(showing offset: Double) -> Double {
        RubberBand.distance(forOffset: offset, extent: geometry.extent, limit: geometry.limit)
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
            startDistance = fingerDistance(showing: heldOffset)
            distance = clamped(startDistance + along)
            velocity.record(position: offset, at: time)
            return PullResponse(claimed: true, updates: [.began(offset: heldOffset), .moved(offset: offset)])
        case .tracking(.drag):
            distance = clamped(startDistance + along)
            velocity.record(position: offset, at: time)
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
            if delta > 0, time >= releasedAt, !Self.isPause(time - lastEvent) {
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
            startDistance = fingerDistance(showing: heldOffset)
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
        if source == .wheel { distance = min(distance, geometry.extent) }
        velocity.record(position: offset, at: time)
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
