import Foundation

/// An easing curve: progress from 0 to 1 as a pure function of normalized time.
public enum AnimationCurve: Sendable, Hashable {
    /// Decelerates to rest, like UIView's default curve for MJRefresh's insets.
    case easeOutCubic
    /// A critically damped spring that settles within the duration without overshoot.
    case criticallyDampedSpring

    /// The curve's slope at the start: how many times the average speed it begins with.
    public var initialSlope: Double {
        switch self {
        case .easeOutCubic: 3
        case .criticallyDampedSpring: 0
        }
    }

    /// Progress at normalized time `t` in 0...1; exactly 0 at 0 and 1 at 1.
    public func progress(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        switch self {
        case .easeOutCubic:
            let remaining = 1 - t
            return 1 - remaining * remaining * remaining
        case .criticallyDampedSpring:
            guard t < 1 else { return 1 }
            // omega is chosen so the spring is within 0.1% of rest at the end of the duration.
            let omega = 9.23
            return 1 - (1 + omega * t) * exp(-omega * t)
        }
    }
}

/// A value animated between two offsets over a duration: a pure function of elapsed time.
public struct OffsetAnimation: Sendable, Equatable {
    public var from: Double
    public var to: Double
    public var duration: Double
    public var curve: AnimationCurve

    public init(from: Double, to: Double, duration: Double, curve: AnimationCurve = .easeOutCubic) {
        self.from = from
        self.to = to
        self.duration = duration
        self.curve = curve
    }

    /// The offset `elapsed` seconds after the start; exactly `to` once the duration has passed.
    public func value(at elapsed: Double) -> Double {
        // `from + (to - from) * 1` is not always `to` in floating point: end on the target itself.
        guard duration > 0, elapsed < duration else { return to }
        return from + (to - from) * curve.progress(elapsed / duration)
    }

    public func isFinished(at elapsed: Double) -> Bool { elapsed >= duration || from == to }
}
