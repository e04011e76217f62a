import Foundation
import GRDB

/// Dates written as UTC text by arithmetic, without DateFormatter: on Linux a DateFormatter runs
/// ICU, which cost more than everything else in binding a stored entry and brought several
/// megabytes of ICU's data into every refresh's memory.
enum UTCDateText {
    /// `yyyy-MM-dd HH:mm:ss.SSS`, as GRDB stores dates (to the nearest millisecond, as DateFormatter rounds);
    /// nil outside the years 1601 to 9999, where calendars disagree and GRDB should decide.
    static func storage(_ date: Date) -> String? {
        guard let parts = Parts(date) else { return nil }
        // Written into the string's own bytes: a sync stores three dates for each article.
        return String(unsafeUninitializedCapacity: 23) { text in
            var end = 0
            func write(_ value: Int, _ count: Int, then separator: UInt8?) {
                var value = value
                for index in (end..<end + count).reversed() {
                    text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                end += count
                if let separator {
                    text[end] = separator
                    end += 1
                }
            }
            write(parts.year, 4, then: UInt8(ascii: "-"))
            write(parts.month, 2, then: UInt8(ascii: "-"))
            write(parts.day, 2, then: UInt8(ascii: " "))
            write(parts.hour, 2, then: UInt8(ascii: ":"))
            write(parts.minute, 2, then: UInt8(ascii: ":"))
            write(parts.second, 2, then: UInt8(ascii: "."))
            write(parts.millisecond, 3, then: nil)
            return end
        }
    }

    /// `EEE, dd MMM yyyy HH:mm:ss 'GMT'` (RFC 1123, as HTTP and OPML write dates); nil outside 1601 to 9999.
    static func rfc1123(_ date: Date) -> String? {
        guard let parts = Parts(date) else { return nil }
        return "\(weekdays[parts.weekday]), \(digits(parts.day, 2)) \(months[parts.month - 1]) \(digits(parts.year, 4)) "
            + "\(digits(parts.hour, 2)):\(digits(parts.minute, 2)):\(digits(parts.second, 2)) GMT"
    }

    /// The date a `storage` text stands for ("yyyy-MM-dd HH:mm:ss" with a fraction or without,
    /// UTC, as GRDB writes dates); nil for any other text.
    static func date(fromStorage text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var fraction = 0.0
        if bytes.count > 19 {
            let digits = bytes.count - 20
            guard bytes[19] == UInt8(ascii: "."), (1...9).contains(digits), let value = number(20..<bytes.count) else { return nil }
            fraction = Double(value) / pow(10, Double(digits))
        }
        let seconds = FeedDate.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
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

extension Row {
    /// A date column as `UTCDateText.storage` writes it, read by arithmetic: GRDB reads dates
    /// through ICU's calendar, whose data cost every sync megabytes of memory. GRDB reads any other form.
    func utcDate(_ column: String) -> Date? {
        let value: DatabaseValue = self[column]
        if case let .string(text) = value.storage, let date = UTCDateText.date(fromStorage: text) { return date }
        return Date.fromDatabaseValue(value)
    }
}
