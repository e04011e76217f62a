import RefreshCore

/// A tracker update of the pull, with the velocity left out (velocity has its own tests);
/// where gestures begin and end has its own tests too.
enum Move: Sendable, Equatable, CustomStringConvertible {
    case began(Double)
    case moved(Double)
    case released
    case cancelled

    init?(_ update: PullUpdate) {
        switch update {
        case let .began(offset): self = .began(offset)
        case let .moved(offset): self = .moved(offset)
        case .released: self = .released
        case .cancelled: self = .cancelled
        case .gestureBegan, .gestureEnded: return nil
        }
    }

    var description: String {
        switch self {
        case let .began(offset): "began(\(offset))"
        case let .moved(offset): "moved(\(offset))"
        case .released: "released"
        case .cancelled: "cancelled"
        }
    }
}

extension PullInput {
    /// A touchpad delta at the edge, from a touchpad that sends scroll-end.
    static func pad(_ delta: Double, at time: Double) -> PullInput {
        .scrolled(delta: delta, source: .continuous(reportsEnd: true), atEdge: true, time: time)
    }

    /// A touchpad delta at the edge, from a driver that never sends scroll-end.
    static func padWithoutEnd(_ delta: Double, at time: Double) -> PullInput {
        .scrolled(delta: delta, source: .continuous(reportsEnd: false), atEdge: true, time: time)
    }
}

/// What the widget does with an input: let the scrolled window have it, or stop it.
enum Reply: Sendable, Equatable, CustomStringConvertible {
    /// Not claimed and nothing happened: the content scrolls as usual.
    case pass
    /// Claimed (the content does not scroll), with these updates.
    case claim([Move])
    /// Not claimed, but the pull changed (a release by scroll-end or pause).
    case unclaimed([Move])

    init(_ response: PullResponse) {
        let moves = response.updates.compactMap(Move.init)
        if response.claimed {
            self = .claim(moves)
        } else {
            self = moves.isEmpty ? .pass : .unclaimed(moves)
        }
    }

    var description: String {
        switch self {
        case .pass: "pass"
        case let .claim(moves): "claim\(moves)"
        case let .unclaimed(moves): "unclaimed\(moves)"
        }
    }
}

/// One input to a tracker, with what the component holds at that moment.
struct Input: Sendable, CustomStringConvertible {
    var input: PullInput
    var held = 0.0
    var canStartPull = true

    var description: String { "\(input) held \(held)\(canStartPull ? "" : " cannot start")" }

    /// A touchpad delta along the pull axis (positive pulls open), from a touchpad that sends
    /// scroll-end when the fingers lift.
    static func pad(_ delta: Double, at time: Double, atEdge: Bool = true, held: Double = 0,
                    canStartPull: Bool = true) -> Input {
        Input(input: .scrolled(delta: delta, source: .continuous(reportsEnd: true), atEdge: atEdge, time: time),
              held: held, canStartPull: canStartPull)
    }

    /// A touchpad delta from a driver that never sends scroll-end (X11 synaptics, evdev).
    static func padWithoutEnd(_ delta: Double, at time: Double, held: Double = 0) -> Input {
        Input(input: .scrolled(delta: delta, source: .continuous(reportsEnd: false), atEdge: true, time: time),
              held: held)
    }

    /// A mouse-wheel delta along the pull axis, in pixels.
    static func wheel(_ delta: Double, at time: Double, atEdge: Bool = true, held: Double = 0) -> Input {
        Input(input: .scrolled(delta: delta, source: .wheel, atEdge: atEdge, time: time), held: held)
    }

    static func scrollBegin(at time: Double) -> Input { Input(input: .scrollBegan(time: time)) }
    static func scrollEnd(at time: Double, held: Double = 0) -> Input {
        Input(input: .scrollEnded(time: time), held: held)
    }
    static func tick(at time: Double) -> Input { Input(input: .tick(time: time)) }

    static func press(at time: Double, held: Double = 0) -> Input { Input(input: .dragBegan(time: time), held: held) }
    /// A drag translation since the press: `along` the pull axis, `across` it.
    static func drag(_ along: Double, across: Double = 0, at time: Double, atEdge: Bool = true,
                     held: Double = 0, canStartPull: Bool = true) -> Input {
        Input(input: .dragMoved(along: along, across: across, atEdge: atEdge, time: time),
              held: held, canStartPull: canStartPull)
    }
    static func lift(at time: Double, held: Double = 0) -> Input { Input(input: .dragEnded(time: time), held: held) }
}

extension PullGeometry {
    /// A 54-pixel header in a 600-pixel viewport.
    static let header = PullGeometry(extent: 54, limit: 600)
}

extension PullTracker {
    /// A header's tracker, with an 8-pixel drag threshold.
    static func header() -> PullTracker { PullTracker(dragThreshold: 8) }

    /// Feeds one input to a 54-pixel header's tracker.
    mutating func handle(_ input: PullInput, heldOffset: Double, geometry: PullGeometry = .header) -> PullResponse {
        handle(input, geometry: geometry, heldOffset: heldOffset)
    }

    /// Feeds inputs in order and returns the replies.
    mutating func replies(to inputs: [Input], geometry: PullGeometry = .header) -> [Reply] {
        inputs.map { Reply(handle($0.input, geometry: geometry, heldOffset: $0.held, canStartPull: $0.canStartPull)) }
    }
}

/// A tracker wired to a machine the way RefreshGtk's component wires them: the tracker sees
/// the machine's offset as the held space, and its updates become machine events.
struct PullSession {
    var tracker: PullTracker
    var driver: MachineDriver
    /// The replies, in order.
    private(set) var replies: [Reply] = []
    /// Pixels of scroll deltas the content received because the pull did not claim them.
    private(set) var passedScroll = 0.0

    /// The viewport the rubber band stretches in.
    var limit: Double

    init(extent: Double = 54, limit: Double = 600) {
        tracker = PullTracker(dragThreshold: 8)
        driver = MachineDriver(extent: extent)
        self.limit = limit
    }

    @discardableResult
    mutating func input(_ input: PullInput) -> Reply {
        let geometry = PullGeometry(extent: driver.machine.extent, limit: limit)
        let response = tracker.handle(input, geometry: geometry, heldOffset: driver.offset)
        for update in response.updates { driver.send(RefreshEvent(update)) }
        if case let .scrolled(delta, _, _, _) = input, !response.claimed { passedScroll += delta }
        let reply = Reply(response)
        replies.append(reply)
        return reply
    }

    mutating func inputs(_ inputs: [PullInput]) {
        for input in inputs { self.input(input) }
    }

    mutating func run(_ steps: [Step]) { driver.run(steps) }
}
