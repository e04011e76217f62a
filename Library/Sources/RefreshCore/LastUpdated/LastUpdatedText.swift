import Foundation

/// Which form the last-updated line takes, decided from the whole calendar date.
public enum LastUpdatedText: Sendable, Equatable {
    /// Never refreshed.
    case noRecord
    /// Earlier today.
    case today(hour: Int, minute: Int)
    /// Earlier this year.
    case thisYear(month: Int, day: Int, hour: Int, minute: Int)
    /// A previous year.
    case older(year: Int, month: Int, day: Int, hour: Int, minute: Int)

    /// Classifies `date` relative to `now` in `timeZone`.
    ///
    /// Compares year, month and day together: MJRefresh compared only the day of the month,
    /// so the 5th of two different months read as "Today".
    public init(date: Date?, now: Date, timeZone: TimeZone) {
        guard let date else {
            self = .noRecord
            return
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        let (year, month, day) = (parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        let (hour, minute) = (parts.hour ?? 0, parts.minute ?? 0)
        if year == today.year, month == today.month, day == today.day {
            self = .today(hour: hour, minute: minute)
        } else if year == today.year {
            self = .thisYear(month: month, day: day, hour: hour, minute: minute)
        } else {
            self = .older(year: year, month: month, day: day, hour: hour, minute: minute)
        }
    }
}

/// How a header's last-updated line is made: the app's own text, or the translated line for
/// the ``LastUpdatedText`` read with an injected clock and time zone (RefreshGtk lays it out).
public struct LastUpdatedFormatter: Sendable {
    /// Replaces the default text entirely when set (MJRefresh's lastUpdatedTimeText block).
    public var custom: (@Sendable (Date?) -> String)?
    public var clock: @Sendable () -> Date
    public var timeZone: TimeZone

    public init(custom: (@Sendable (Date?) -> String)? = nil,
                clock: @escaping @Sendable () -> Date = Date.init,
                timeZone: TimeZone = .current) {
        self.custom = custom
        self.clock = clock
        self.timeZone = timeZone
    }
}
