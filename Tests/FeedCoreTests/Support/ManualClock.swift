import Foundation

/// A clock that moves only when a test moves it, for timing without sleeping.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        current = start
    }

    var now: Date { lock.withLock { current } }

    /// A closure reading this clock, for `FeedLibrary(now:)` and the like.
    var reader: @Sendable () -> Date { { [self] in now } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }
}
