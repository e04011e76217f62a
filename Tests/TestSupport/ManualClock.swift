import Foundation

/// A clock that moves only when a test moves it, for timing without sleeping.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        current = start
    }

    public var now: Date { lock.withLock { current } }

    /// A closure reading this clock, for `FeedLibrary(now:)` and the like.
    public var reader: @Sendable () -> Date { { [self] in now } }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }

    /// Moves the clock to `date`, which must not be earlier than now.
    public func advance(to date: Date) {
        lock.withLock { current = max(current, date) }
    }
}
