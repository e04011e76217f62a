/// Release velocity measured over the most recent motion only.
public struct VelocityEstimator: Sendable {
    private var samples: [(time: Double, position: Double)] = []

    public init() {}

    /// Records the pull position at a time in seconds.
    public mutating func record(position: Double, at time: Double) {
        samples.append((time, position))
        samples.removeAll { time - $0.time > PullTuning.velocityWindow }
    }

    /// Pixels per second over the window, 0 when there is too little motion to tell.
    public func velocity(at time: Double) -> Double {
        let recent = samples.filter { time - $0.time <= PullTuning.velocityWindow }
        guard let first = recent.first, let last = recent.last, last.time > first.time else { return 0 }
        return (last.position - first.position) / (last.time - first.time)
    }

    public mutating func reset() { samples.removeAll() }
}
