/// Input event timestamps on the pull clock.
public enum EventTime {
    /// When an event happened, in seconds on the monotonic clock `now` is read from, given the
    /// windowing system's 32-bit millisecond stamp.
    ///
    /// Wayland compositors and X servers stamp input with the monotonic clock in milliseconds,
    /// wrapping at 2^32. An event that was queued behind a slow frame is dispatched late but
    /// keeps the time it happened, which is what pause and momentum decisions must compare.
    /// A stamp from the future or older than `PullTuning.maximumEventAge` is from another
    /// clock: the event is taken as happening now.
    public static func seconds(stampMilliseconds stamp: UInt32, now: Double) -> Double {
        let nowStamp = UInt32(truncatingIfNeeded: Int64((now * 1000).rounded(.down)))
        let age = Double(nowStamp &- stamp) / 1000
        return age <= PullTuning.maximumEventAge ? now - age : now
    }
}
