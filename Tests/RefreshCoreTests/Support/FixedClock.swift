import Foundation

/// A clock for tests: reads a settable instant, never the real time.
final class FixedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var readCount = 0

    /// How many times the clock was read.
    var reads: Int {
        lock.lock()
        defer { lock.unlock() }
        return readCount
    }

    init(_ iso8601: String) { current = instant(iso8601) }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        readCount += 1
        return current
    }

    func set(_ iso8601: String) {
        lock.lock()
        defer { lock.unlock() }
        current = instant(iso8601)
    }

    /// The clock as the `() -> Date` closure the formatter takes.
    var closure: @Sendable () -> Date { { self.now } }
}

/// An instant written in ISO 8601 with its offset, e.g. "2024-03-05T10:00:00Z" or "...+09:00".
func instant(_ iso8601: String) -> Date {
    let parser = ISO8601DateFormatter()
    parser.formatOptions = [.withInternetDateTime]
    guard let date = parser.date(from: iso8601) else { fatalError("bad test date \(iso8601)") }
    return date
}

/// A time zone by identifier; a test with a misspelt one fails loudly.
func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else { fatalError("unknown time zone \(identifier)") }
    return zone
}
