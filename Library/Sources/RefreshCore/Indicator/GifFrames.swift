/// Which frame of a state's images a Gif indicator shows (MJRefresh's Gif variants).
public enum GifFrames {
    /// Seconds per frame when no duration is given.
    public static let defaultFrameDuration = 0.1

    /// How long one loop of `count` frames lasts: `duration` if given, else 0.1 s per frame.
    public static func loopDuration(count: Int, duration: Double?) -> Double {
        duration ?? Double(count) * defaultFrameDuration
    }

    /// The frame to show, or nil when the state has no frames.
    ///
    /// While idle the frame follows the pull: floor(count x pullingPercent), clamped to the
    /// frames there are. Pulling and refreshing loop through their frames over `loopDuration`
    /// from the moment the state began; a single frame is shown still.
    public static func index(state: RefreshState, count: Int, pullingPercent: Double,
                             elapsed: Double, loopDuration: Double) -> Int? {
        guard count > 0 else { return nil }
        switch state {
        case .idle:
            let scaled = (Double(count) * pullingPercent).rounded(.down)
            guard scaled.isFinite else { return 0 }
            return Int(min(max(scaled, 0), Double(count - 1)))
        case .pulling, .refreshing, .willRefresh:
            guard count > 1, loopDuration > 0, elapsed > 0 else { return 0 }
            let progress = (elapsed / loopDuration).truncatingRemainder(dividingBy: 1)
            return min(Int(progress * Double(count)), count - 1)
        case .noMoreData:
            return 0
        }
    }

    /// Whether the frame changes with time in `state`: frames must keep coming.
    public static func loops(state: RefreshState, count: Int) -> Bool {
        count > 1 && (state == .pulling || state.isRefreshing)
    }
}
