/// What the velocity of a release means, in the manner of libadwaita's swipe tracker: a fast
/// enough release is projected onwards to decide where it ends, and the motion that follows a
/// release starts at the speed the content was let go with.
public enum ReleaseMotion {
    /// Whether a release short of `extent` is a flick that carries on past it: fast enough
    /// (``PullTuning/flickVelocity``), from far enough (``PullTuning/flickReach``), and
    /// projected (``PullTuning/flickProjection``) beyond the extent.
    public static func flickPasses(extent: Double, offset: Double, velocity: Double) -> Bool {
        guard velocity >= PullTuning.flickVelocity, offset >= extent * PullTuning.flickReach else { return false }
        return offset + velocity * PullTuning.flickProjection > extent
    }

    /// How long the ease-out from `offset` to `target` takes after a release at `velocity`
    /// pixels per second: as long as it takes to start at that speed, within
    /// ``PullTuning/shortestReleaseAnimation`` and `standard`. Released still, or moving away
    /// from the target, it takes `standard`.
    public static func duration(from offset: Double, to target: Double, velocity: Double,
                                standard: Double) -> Double {
        let distance = target - offset
        guard distance * velocity > 0 else { return standard }
        let matchingSpeed = AnimationCurve.easeOutCubic.initialSlope * abs(distance) / abs(velocity)
        return min(standard, max(PullTuning.shortestReleaseAnimation, matchingSpeed))
    }
}
