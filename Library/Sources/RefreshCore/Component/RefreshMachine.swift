/// The rules of a pull-to-refresh component along one edge: header, back footer or trailer.
///
/// A pure state machine: ``handle(_:)`` takes one event and returns the effects to perform.
/// Animation targets are absolute offsets, never deltas, so a begin overlapping an end can
/// never leave the content shifted; every begin runs its callbacks once, and so does every end.
public struct RefreshMachine: Sendable {
    /// Durations from MJRefresh, in seconds.
    public enum Duration {
        public static let fast = 0.25
        public static let slow = 0.4
    }

    public private(set) var state: RefreshState = .idle
    /// How far the content is displaced from its edge, in pixels.
    public private(set) var offset = 0.0
    public private(set) var pullingPercent = 0.0
    public private(set) var isInteracting = false
    /// A refresh began while the finger held the content: reveal it fully on release.
    private var revealOnRelease = false
    /// The animation under way, if any.
    public private(set) var animation: RefreshAnimation?
    /// The component's extent along its axis: 54 for a header.
    public private(set) var extent: Double
    /// Whether the component fades in with the pull and out after a refresh.
    public var automaticallyChangeAlpha: Bool
    /// Another component of the view is refreshing (see ``RefreshEvent/blocked(_:)``): a pull
    /// still moves the content but never passes the threshold, and letting go only springs back.
    /// ``RefreshEvent/beginRefreshing(isMapped:)`` is the app's call and still begins.
    public private(set) var isBlocked = false

    public init(extent: Double, automaticallyChangeAlpha: Bool = false) {
        self.extent = extent
        self.automaticallyChangeAlpha = automaticallyChangeAlpha
    }

    public var isRefreshing: Bool { state.isRefreshing }

    /// The component's opacity: follows the pull when ``automaticallyChangeAlpha`` is on.
    public var alpha: Double {
        guard automaticallyChangeAlpha, !state.isRefreshing else { return 1 }
        return min(1, max(0, pullingPercent))
    }

    public mutating func handle(_ event: RefreshEvent) -> [RefreshEffect] {
        var effects: [RefreshEffect] = []
        switch event {
        case .pullBegan:
            if animation != nil {
                effects.append(.cancelAnimation)
                effects += finishAnimation()
            }
            isInteracting = true

        case let .pulled(newOffset):
            guard isInteracting else { break }
            effects += move(to: newOffset)
            switch state {
            case .idle where newOffset > extent && !isBlocked:
                effects += state.change(to: .pulling)
            case .pulling where newOffset <= extent || isBlocked:
                effects += state.change(to: .idle)
            default:
                break
            }

        case let .released(velocity):
            guard isInteracting else { break }
            isInteracting = false
            defer { revealOnRelease = false }
            if state == .pulling
                || (state == .idle && !isBlocked
                    && ReleaseMotion.flickPasses(extent: extent, offset: offset, velocity: velocity)) {
                effects += beginRefreshing(releasedAt: velocity)
            } else {
                effects += letGo(velocity: velocity)
            }

        case .pullCancelled:
            guard isInteracting else { break }
            isInteracting = false
            defer { revealOnRelease = false }
            effects += state == .pulling ? state.change(to: .idle) : []
            effects += letGo(velocity: 0)

        case let .blocked(blocked):
            isBlocked = blocked
            // A pull already past the threshold no longer promises a refresh: it says so at once.
            if blocked, state == .pulling { effects += state.change(to: .idle) }

        case let .beginRefreshing(isMapped):
            guard !state.isRefreshing else { break }
            if isMapped {
                effects += beginRefreshing()
            } else {
                effects += state.change(to: .willRefresh)
            }

        case .mapped:
            if state == .willRefresh { effects += beginRefreshing() }

        case let .endRefreshing(noMoreData):
            effects += endRefreshing(noMoreData: noMoreData)

        case .resetNoMoreData:
            if state == .noMoreData { effects += state.change(to: .idle) }

        case let .animationStep(newOffset):
            guard animation != nil else { break }
            effects += move(to: newOffset)

        case let .animationFinished(purpose):
            guard animation == purpose else { break }
            effects += finishAnimation()

        case let .contentScrolled(distance, _):
            // While refreshing, the held space scrolls away with the content, as an inset would.
            guard state == .refreshing, !isInteracting, animation == nil, offset > 0, distance > 0 else { break }
            let taken = min(distance, offset)
            effects += move(to: offset - taken)
            effects.append(.scrollContent(by: taken))

        case let .extentChanged(newExtent):
            let wasHolding = state == .refreshing && animation == nil && !isInteracting && offset == extent
            extent = max(0, newExtent)
            if wasHolding { effects += move(to: extent) }

        case .gestureBegan, .gestureEnded, .tapped, .hidden:
            break
        }
        return effects
    }

    /// Where the content goes when let go without starting a refresh: back to rest, or to the
    /// held extent while refreshing, starting at the speed it was let go with.
    private mutating func letGo(velocity: Double) -> [RefreshEffect] {
        let target: Double
        let purpose: RefreshAnimation
        switch state {
        case .refreshing where offset > extent || (revealOnRelease && offset < extent):
            (target, purpose) = (extent, .settle)
        case .idle where offset > 0, .noMoreData where offset > 0:
            (target, purpose) = (0, .springBack)
        default:
            return []
        }
        let duration = ReleaseMotion.duration(from: offset, to: target, velocity: velocity, standard: Duration.fast)
        return startAnimation(to: target, duration: duration, purpose: purpose)
    }

    /// Moves the content; while not refreshing, pullingPercent follows the offset.
    private mutating func move(to newOffset: Double) -> [RefreshEffect] {
        var effects: [RefreshEffect] = []
        if newOffset != offset {
            offset = newOffset
            effects.append(.setOffset(newOffset))
        }
        if !state.isRefreshing {
            effects += setPullingPercent(extent > 0 ? newOffset / extent : 0)
        }
        return effects
    }

    private mutating func setPullingPercent(_ percent: Double) -> [RefreshEffect] {
        guard percent != pullingPercent else { return [] }
        pullingPercent = percent
        return [.pullingPercentChanged(percent)]
    }

    /// Begins a refresh; after a release at `velocity`, the reveal starts at that speed.
    private mutating func beginRefreshing(releasedAt velocity: Double = 0) -> [RefreshEffect] {
        var effects = supersedeAnimation()
        effects += state.change(to: .refreshing)
        effects += setPullingPercent(1)
        if isInteracting {
            // The finger owns the content: refresh now, reveal the whole component on release.
            revealOnRelease = true
            effects += [.runRefreshAction, .completeBeginning, .notifyAfterBeginning]
        } else {
            let duration = ReleaseMotion.duration(from: offset, to: extent, velocity: velocity, standard: Duration.fast)
            effects += startAnimation(to: extent, duration: duration, purpose: .reveal)
        }
        return effects
    }

    private mutating func endRefreshing(noMoreData: Bool) -> [RefreshEffect] {
        let target: RefreshState = noMoreData ? .noMoreData : .idle
        switch state {
        case .willRefresh:
            // The refresh never started; its begin completion still runs, so no caller waits forever.
            return state.change(to: target) + [.completeBeginning, .completeEnding]
        case .refreshing:
            var effects = supersedeAnimation()
            effects.append(.recordLastUpdated)
            effects += state.change(to: target)
            effects.append(.notifyEndingAnimationBegins)
            if isInteracting {
                effects += setPullingPercent(extent > 0 ? offset / extent : 0)
                effects += [.completeEnding, .notifyAfterEnding]
            } else {
                effects += startAnimation(to: 0, duration: Duration.slow, purpose: .hide)
            }
            return effects
        case .idle, .pulling, .noMoreData:
            // Footers may be told there is no more data while idle; a header's end while idle is a no-op.
            return noMoreData ? state.change(to: .noMoreData) : []
        }
    }

    private mutating func startAnimation(to target: Double, duration: Double,
                                         purpose: RefreshAnimation) -> [RefreshEffect] {
        animation = purpose
        return [.animate(to: target, duration: duration, purpose: purpose)]
    }

    /// Ends the running animation early, still performing what its end would have.
    private mutating func supersedeAnimation() -> [RefreshEffect] {
        guard animation != nil else { return [] }
        return finishAnimation()
    }

    private mutating func finishAnimation() -> [RefreshEffect] {
        guard let purpose = animation else { return [] }
        animation = nil
        switch purpose {
        case .reveal:
            return [.runRefreshAction, .completeBeginning, .notifyAfterBeginning]
        case .hide:
            return setPullingPercent(0) + [.completeEnding, .notifyAfterEnding]
        case .springBack, .settle:
            return []
        }
    }
}
