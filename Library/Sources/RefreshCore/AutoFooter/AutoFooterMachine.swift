/// The rules of an auto-loading footer: it sits after the content and loads when scrolled into view.
///
/// The footer behaves as `extent` pixels of extra content after the list's end: scrolling on at
/// the end reveals it, scrolling back hides it first. It loads when revealed to
/// ``triggerPercent`` while moving towards the end. Every automatic load spends one of
/// ``autoTriggerTimes``, and only user input (a new drag, touchpad sequence or wheel click)
/// refills them, so rows appended by a load, a finger held at the end and the fling that
/// follows a load can never fire it again: the loops users of every pull-to-refresh library report.
public struct AutoFooterMachine: Sendable {
    public private(set) var state: RefreshState = .idle
    /// How much of the footer is revealed past the content's end, 0...extent.
    public private(set) var offset = 0.0
    public private(set) var pullingPercent = 0.0
    public private(set) var isInteracting = false
    public private(set) var animation: RefreshAnimation?
    public private(set) var extent: Double
    /// Load by itself when scrolled into view (MJRefresh's automaticallyRefresh).
    public var automaticallyRefresh = true
    /// How much of the footer must be visible to load: 1 = all of it; negative values load
    /// that many footer heights before the end.
    public var triggerPercent = 1.0
    /// Loads per gesture; -1 for unlimited.
    public var autoTriggerTimes = 1 {
        didSet { triggersLeft = autoTriggerTimes }
    }
    /// Another component of the view is refreshing (see ``RefreshEvent/blocked(_:)``): the
    /// footer still shows as the content scrolls, but neither scrolling nor a tap loads. The
    /// app's ``RefreshEvent/beginRefreshing(isMapped:)`` still does.
    public private(set) var isBlocked = false
    /// Whether the footer is hidden: it then takes no space and never loads.
    public private(set) var isHidden = false
    public private(set) var triggersLeft = 1
    /// The content is shorter than the view: the footer sits right after it, in view at rest.
    public private(set) var contentFitsViewport = false
    private var distanceFromEnd = 0.0

    public init(extent: Double) {
        self.extent = extent
    }

    public var isRefreshing: Bool { state.isRefreshing }
    public var alpha: Double { 1 }

    /// Takes one event: a pull reveals the footer (``RefreshEvent/pulled(offset:)``), never
    /// stretching it; events of a pull past an edge only (``RefreshEvent/pullBegan``,
    /// ``RefreshEvent/mapped``) change nothing.
    public mutating func handle(_ event: RefreshEvent) -> [RefreshEffect] {
        var effects: [RefreshEffect] = []
        switch event {
        case .gestureBegan:
            triggersLeft = autoTriggerTimes

        case let .pulled(newOffset):
            guard !isHidden else { break }
            isInteracting = true
            if animation != nil {
                // The fingers take the footer over from the animation.
                effects.append(.cancelAnimation)
                animation = nil
            }
            effects += move(to: min(max(0, newOffset), extent))
            if newOffset > 0 { effects += triggerIfDue() }

        case .released, .pullCancelled:
            isInteracting = false

        case let .gestureEnded(towardsEnd):
            guard contentFitsViewport, !isHidden else { break }
            // Short content: the footer is in view already; a drag towards the end asks for more.
            if towardsEnd { effects += triggerIfDue(ignoringThreshold: true) }
            if offset > 0 { effects += startAnimation(to: 0, purpose: .springBack) }

        case let .contentScrolled(distance, fitsViewport):
            contentFitsViewport = fitsViewport
            if offset > 0, distance > PullTuning.edgeTolerance, !isInteracting, animation == nil, !fitsViewport {
                distanceFromEnd = distance
                effects += absorbContentBelow()
                break
            }
            let movingTowardsEnd = distance < distanceFromEnd
            distanceFromEnd = distance
            guard !isHidden, !fitsViewport else { break }
            if movingTowardsEnd, distance < PullTuning.edgeTolerance, offset < extent, !isInteracting {
                // Arriving at the end by a fling, the keyboard or the scrollbar carries on into the
                // footer, as it would were the footer part of the content.
                effects += startAnimation(to: extent, purpose: .reveal)
            } else if movingTowardsEnd {
                effects += triggerIfDue()
            }

        case let .blocked(blocked):
            isBlocked = blocked

        case .pullBegan, .mapped:
            break

        case .tapped:
            guard !isHidden, !isBlocked, state == .idle else { break }
            effects += beginLoading()

        case .beginRefreshing:
            // On screen or not, the footer loads at once: it holds no space that needs revealing.
            guard !isHidden, !state.isRefreshing else { break }
            effects += beginLoading()

        case let .endRefreshing(noMoreData):
            guard state.isRefreshing || noMoreData else { break }
            let wasLoading = state.isRefreshing
            effects += state.change(to: noMoreData ? .noMoreData : .idle)
            // Only a load that ran has an ending to announce; the caller's completion always runs.
            effects += wasLoading ? [.notifyEndingAnimationBegins, .completeEnding, .notifyAfterEnding] : [.completeEnding]

        case .resetNoMoreData:
            if state == .noMoreData { effects += state.change(to: .idle) }

        case let .hidden(hide):
            guard hide != isHidden else { break }
            isHidden = hide
            if hide {
                animation = nil
                effects.append(.cancelAnimation)
                effects += state.change(to: .idle)
                effects += move(to: 0)
            }

        case let .extentChanged(newExtent):
            // A fully shown footer stays fully shown; a partly revealed one keeps its pixels.
            let wasFull = offset > 0 && offset == extent
            extent = max(0, newExtent)
            effects += move(to: wasFull ? extent : min(offset, extent))

        case let .animationStep(newOffset):
            guard animation != nil else { break }
            effects += move(to: newOffset)

        case let .animationFinished(purpose):
            guard animation == purpose else { break }
            animation = nil
            if distanceFromEnd > PullTuning.edgeTolerance {
                // The content grew while the footer came into view: the end moved on.
                effects += absorbContentBelow()
            } else if purpose == .reveal {
                effects += triggerIfDue()
            }
        }
        return effects
    }

    /// Content below a revealed footer (rows a load appended, a scrollbar moved away, a list that
    /// measured itself taller): the footer's space turns into scrolling, so nothing on screen jumps.
    private mutating func absorbContentBelow() -> [RefreshEffect] {
        let taken = min(distanceFromEnd, offset)
        distanceFromEnd -= taken
        return move(to: offset - taken) + [.scrollContent(by: taken)]
    }

    /// The visible fraction needed to load, as an offset past the content's end.
    private var threshold: Double { extent * triggerPercent }

    /// Loads automatically when enough of the footer shows and the budget allows; spends one.
    private mutating func triggerIfDue(ignoringThreshold: Bool = false) -> [RefreshEffect] {
        guard automaticallyRefresh, !isBlocked, state == .idle, triggersLeft != 0 else { return [] }
        let visible = offset - distanceFromEnd
        guard ignoringThreshold || visible >= threshold - 0.5 else { return [] }
        if triggersLeft > 0 { triggersLeft -= 1 }
        return beginLoading()
    }

    private mutating func beginLoading() -> [RefreshEffect] {
        var effects = state.change(to: .refreshing)
        if offset < extent, !contentFitsViewport, distanceFromEnd < PullTuning.edgeTolerance, !isInteracting {
            effects += startAnimation(to: extent, purpose: .settle)
        }
        effects += [.runRefreshAction, .completeBeginning, .notifyAfterBeginning]
        return effects
    }

    private mutating func move(to newOffset: Double) -> [RefreshEffect] {
        guard newOffset != offset else { return [] }
        offset = newOffset
        pullingPercent = extent > 0 ? newOffset / extent : 0
        return [.setOffset(newOffset), .pullingPercentChanged(pullingPercent)]
    }

    private mutating func startAnimation(to target: Double, purpose: RefreshAnimation) -> [RefreshEffect] {
        animation = purpose
        return [.animate(to: target, duration: RefreshMachine.Duration.fast, purpose: purpose)]
    }
}
