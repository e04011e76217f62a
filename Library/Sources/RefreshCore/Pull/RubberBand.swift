/// Resistance applied to a pull once it passes the component's extent.
public enum RubberBand {
    /// The displayed offset for a finger that travelled `distance` past the edge.
    ///
    /// Up to `extent` the content follows the finger exactly, so the indicator is revealed
    /// under it; beyond, each pixel moves the content less, approaching `limit` asymptotically.
    public static func offset(forDistance distance: Double, extent: Double, limit: Double) -> Double {
        guard distance > extent else { return max(0, distance) }
        let excess = distance - extent
        let room = max(limit - extent, 1)
        let resisted = (1 - 1 / (excess * PullTuning.rubberBandCoefficient / room + 1)) * room
        return extent + resisted
    }

    /// The finger distance that displays `offset`: the inverse of ``offset(forDistance:extent:limit:)``.
    public static func distance(forOffset offset: Double, extent: Double, limit: Double) -> Double {
        guard offset > extent else { return max(0, offset) }
        let room = max(limit - extent, 1)
        let resisted = min(offset - extent, room * 0.999)
        let excess = (1 / (1 - resisted / room) - 1) * room / PullTuning.rubberBandCoefficient
        return extent + excess
    }
}
