import RefreshCore
import Testing

/// A callback the app sees, named after the effect that asks for it.
enum Callback: Sendable, Hashable, CustomStringConvertible {
    case refreshAction
    case beginCompletion
    case afterBeginning
    case recordLastUpdated
    case endingAnimationBegins
    case endCompletion
    case afterEnding

    /// Every callback of one refresh that began and ended, in the order the app sees them.
    static let wholeRefresh: [Callback] = began + ended
    /// The callbacks of a refresh that began: the action, then the begin completion, then after-beginning.
    static let began: [Callback] = [.refreshAction, .beginCompletion, .afterBeginning]
    /// The callbacks of a refresh that ended and finished hiding.
    static let ended: [Callback] = [.recordLastUpdated, .endingAnimationBegins, .endCompletion, .afterEnding]

    var description: String {
        switch self {
        case .refreshAction: "action"
        case .beginCompletion: "beginCompletion"
        case .afterBeginning: "afterBeginning"
        case .recordLastUpdated: "recordLastUpdated"
        case .endingAnimationBegins: "endingAnimationBegins"
        case .endCompletion: "endCompletion"
        case .afterEnding: "afterEnding"
        }
    }
}

/// One thing that happens to a component in a scripted scenario.
enum Script<Event: Sendable>: Sendable, CustomStringConvertible {
    /// Feed an event to the machine (as the host does, queueing what its effects cause).
    case send(Event)
    /// Let this many seconds of animation frames pass.
    case advance(Double)
    /// Let the running animation, if any, reach its end.
    case settle

    var description: String {
        switch self {
        case let .send(event): "\(event)"
        case let .advance(seconds): "advance(\(seconds))"
        case .settle: "settle"
        }
    }
}

/// A step of a header (or back footer) scenario.
typealias Step = Script<RefreshEvent>

extension Script where Event == RefreshEvent {
    static var begin: Step { .send(.beginRefreshing(isMapped: true)) }
    static var beginUnmapped: Step { .send(.beginRefreshing(isMapped: false)) }
    static var mapped: Step { .send(.mapped) }
    static var end: Step { .send(.endRefreshing(noMoreData: false)) }
    static var endNoMoreData: Step { .send(.endRefreshing(noMoreData: true)) }
    static var resetNoMoreData: Step { .send(.resetNoMoreData) }
    static var touch: Step { .send(.pullBegan) }
    static var release: Step { .send(.released(velocity: 0)) }
    static func pull(_ offset: Double) -> Step { .send(.pulled(offset: offset)) }
    static func scrolled(_ distance: Double) -> Step { .send(.contentScrolled(distance: distance, fitsViewport: false)) }
    static func extent(_ extent: Double) -> Step { .send(.extentChanged(extent)) }

    /// A whole gesture: touch, pull through `offsets`, let go.
    static func gesture(_ offsets: Double...) -> [Step] { [.touch] + offsets.map(pull) + [.release] }
}


/// Drives a header's ``RefreshMachine``.
typealias MachineDriver = Driver<RefreshMachine>

extension Driver where Machine == RefreshMachine {
    init(extent: Double = 54, automaticallyChangeAlpha: Bool = false) {
        self.init(RefreshMachine(extent: extent, automaticallyChangeAlpha: automaticallyChangeAlpha))
    }
}

/// Plays the host of a state machine the way RefreshGtk does: performs effects in order,
/// queues the events they cause until the current one is handled, runs `.animate` effects by
/// stepping an ``OffsetAnimation`` frame by frame (or at once when it has nothing to do), and
/// records what the app and the user would see.
struct Driver<Machine: RefreshLogic> {
    /// One frame of a 60 Hz frame clock.
    static var frameInterval: Double { 1.0 / 60 }

    struct RunningAnimation {
        var animation: OffsetAnimation
        var purpose: RefreshAnimation
        var elapsed = 0.0
    }

    private(set) var machine: Machine
    /// Every effect performed, in order.
    private(set) var effects: [RefreshEffect] = []
    /// The effects of the last `send`, including those of the events it queued.
    private(set) var lastEffects: [RefreshEffect] = []
    /// The offset shown on screen: the last `.setOffset` performed.
    private(set) var shownOffset = 0.0
    /// The states seen by a state observer, starting with the initial state.
    private(set) var states: [RefreshState]
    /// The app's callbacks, in the order they ran.
    private(set) var callbacks: [Callback] = []
    /// Every pulling percent reported to an observer.
    private(set) var percents: [Double] = []
    /// Pixels the content was scrolled back towards the edge because the held space took them.
    private(set) var contentScrolledBack = 0.0
    /// The animation the host is running, if any.
    private(set) var running: RunningAnimation?
    /// Host-side contract violations (a `stateChanged` from a state the host did not see, ...).
    private(set) var violations: [String] = []

    private var queue: [RefreshEvent] = []

    init(_ machine: Machine) {
        self.machine = machine
        states = [machine.state]
    }

    var state: RefreshState { machine.state }
    var offset: Double { machine.offset }
    var pullingPercent: Double { machine.pullingPercent }
    var isAnimating: Bool { running != nil }

    func count(_ callback: Callback) -> Int { callbacks.filter { $0 == callback }.count }

    // MARK: - Feeding

    mutating func run(_ steps: [Step]) {
        for step in steps { run(step) }
    }

    mutating func run(_ step: Step) {
        switch step {
        case let .send(event): send(event)
        case let .advance(seconds): advance(by: seconds)
        case .settle: settle()
        }
    }

    /// Feeds one event, then the events its effects queued, like RefreshComponent.send.
    mutating func send(_ event: RefreshEvent) {
        lastEffects = []
        queue.append(event)
        while !queue.isEmpty {
            let next = queue.removeFirst()
            let produced = machine.handle(next)
            lastEffects += produced
            for effect in produced { perform(effect) }
        }
        if shownOffset != machine.offset {
            violations.append("shown offset \(shownOffset) differs from the machine's \(machine.offset)")
        }
    }

    /// Lets `seconds` of frames pass, stepping the running animation as a frame clock would.
    mutating func advance(by seconds: Double) {
        var remaining = seconds
        while remaining > 1e-12, var current = running {
            let frame = min(Self.frameInterval, remaining)
            remaining -= frame
            current.elapsed += frame
            let finished = current.animation.isFinished(at: current.elapsed)
            running = finished ? nil : current
            send(.animationStep(offset: current.animation.value(at: current.elapsed)))
            if finished { send(.animationFinished(current.purpose)) }
        }
    }

    /// Runs animations until none is left (at most ten seconds of frames).
    mutating func settle() {
        var frames = 0
        while running != nil, frames < 600 {
            advance(by: Self.frameInterval)
            frames += 1
        }
        if running != nil { violations.append("an animation was still running after ten seconds") }
    }

    private mutating func perform(_ effect: RefreshEffect) {
        effects.append(effect)
        switch effect {
        case let .stateChanged(from, to):
            if from != states.last { violations.append("state changed from \(from), but the host saw \(states.last!)") }
            if from == to { violations.append("state changed from \(from) to itself") }
            states.append(to)
        case let .pullingPercentChanged(percent):
            percents.append(percent)
        case let .setOffset(offset):
            shownOffset = offset
        case let .animate(target, duration, purpose):
            // Replaces any running animation, starting from where the content is now.
            let animation = OffsetAnimation(from: machine.offset, to: target, duration: duration)
            if animation.isFinished(at: 0) {
                running = nil
                queue += [.animationStep(offset: target), .animationFinished(purpose)]
            } else {
                running = RunningAnimation(animation: animation, purpose: purpose)
            }
        case let .scrollContent(pixels):
            contentScrolledBack += pixels
        case .cancelAnimation:
            running = nil
        case .runRefreshAction: callbacks.append(.refreshAction)
        case .completeBeginning: callbacks.append(.beginCompletion)
        case .notifyAfterBeginning: callbacks.append(.afterBeginning)
        case .recordLastUpdated: callbacks.append(.recordLastUpdated)
        case .notifyEndingAnimationBegins: callbacks.append(.endingAnimationBegins)
        case .completeEnding: callbacks.append(.endCompletion)
        case .notifyAfterEnding: callbacks.append(.afterEnding)
        }
    }
}
