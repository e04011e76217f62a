import Foundation

/// Dates written as UTC text by arithmetic, without DateFormatter: on Linux a DateFormatter runs
/// ICU, which cost more than everything else in binding a stored entry and brought several
/// megabytes of ICU's data into every refresh's memory.
enum UTCDateText {
    /// `yyyy-MM-dd HH:mm:ss.SSS`, as GRDB stores dates (to the nearest millisecond, as DateFormatter rounds);
    /// nil outside the years 1601 to 9999, where calendars disagree and GRDB should decide.
    static func storage(_ date: Date) -> String? {
        guard let parts = Parts(date) else { return nil }
        return "\(digits(parts.year, 4))-\(digits(parts.month, 2))-\(digits(parts.day, 2)) "
            + "\(digits(parts.hour, 2)):\(digits(parts.minute, 2)):\(digits(parts.second, 2)).\(digits(parts.millisecond, 3))"
    }

    /// `EEE, dd MMM yyyy HH:mm:ss 'GMT'` (RFC 1123, as HTTP and OPML write dates); nil outside 1601 to 9999.
    static func rfc1123(_ date: Date) -> String? {
        guard let parts = Parts(date) else { return nil }
        return "\(weekdays[parts.weekday]), \(digits(parts.day, 2)) \(months[parts.month - 1]) \(digits(parts.year, 4)) "
            + "\(digits(parts.hour, 2)):\(digits(parts.minute, 2)):\(digits(parts.second, 2)) GMT"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
    }

    /// A date's fields in the proleptic Gregorian calendar, UTC.
    private struct Parts {
        var year, month, day, hour, minute, second, millisecond, weekday: Int

        init?(_ date: Date) {
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
            // 1601-01-01 and 10000-01-01 in milliseconds since 1970.
            guard milliseconds >= -11_644_473_600_000, milliseconds < 253_402_300_800_000 else { return nil }
            let total = Int(milliseconds)
            let days = total >= 0 ? total / 86_400_000 : (total - 86_399_999) / 86_400_000
            let inDay = total - days * 86_400_000
            (hour, minute, second, millisecond) = (inDay / 3_600_000, inDay / 60_000 % 60, inDay / 1000 % 60, inDay % 1000)
            // 1970-01-01 was a Thursday.
            weekday = ((days % 7) + 11) % 7
            (year, month, day) = FeedDate.civilDate(fromDays: days)
        }
    }
}
