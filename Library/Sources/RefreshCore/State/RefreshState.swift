/// The state of a refresh component, as MJRefresh defines it.
public enum RefreshState: Sendable, Hashable, CaseIterable {
    /// At rest, or pulled less than the component's extent.
    case idle
    /// Pulled past the component's extent: releasing now starts a refresh.
    case pulling
    /// The refresh action runs; the component holds its space.
    case refreshing
    /// A refresh was asked for before the component was on screen; it starts when mapped.
    case willRefresh
    /// A footer that has loaded everything: it shows so and never triggers.
    case noMoreData

    /// Whether the app's work is under way or about to be.
    public var isRefreshing: Bool { self == .refreshing || self == .willRefresh }
}

extension RefreshState {
    /// Becomes `newState`, returning the effect that reports the change, or none when the
    /// state was already `newState`: the one transition every machine goes through.
    mutating func change(to newState: RefreshState) -> [RefreshEffect] {
        guard newState != self else { return [] }
        let old = self
        self = newState
        return [.stateChanged(from: old, to: newState)]
    }
}
