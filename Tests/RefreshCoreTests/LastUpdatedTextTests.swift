import Foundation
import RefreshCore
import Testing

/// A last-update time, the clock's time and zone, and the line the header shows.
struct LastUpdatedCase: Sendable, CustomTestStringConvertible {
    var name: String
    var last: String?
    var now: String
    var zone = "UTC"
    var line: String

    var testDescription: String { name }
}

@Suite("Last-updated text: injected clock and time zone, whole-date comparison")
struct LastUpdatedTextTests {
    static let cases: [LastUpdatedCase] = [
        LastUpdatedCase(name: "never refreshed",
                        last: nil, now: "2024-03-05T12:00:00Z", line: "Last update: Never"),
        LastUpdatedCase(name: "earlier today",
                        last: "2024-03-05T09:07:00Z", now: "2024-03-05T18:00:00Z", line: "Last update: Today 09:07"),
        LastUpdatedCase(name: "just now, at midnight",
                        last: "2024-03-05T00:00:00Z", now: "2024-03-05T00:00:30Z", line: "Last update: Today 00:00"),
        LastUpdatedCase(name: "the 5th of two different months is not today (MJRefresh's bug)",
                        last: "2024-02-05T10:00:00Z", now: "2024-03-05T12:00:00Z", line: "Last update: 02-05 10:00"),
        LastUpdatedCase(name: "the same day of the same month a year earlier is not today",
                        last: "2023-03-05T10:00:00Z", now: "2024-03-05T12:00:00Z",
                        line: "Last update: 2023-03-05 10:00"),
        LastUpdatedCase(name: "yesterday, a minute before midnight",
                        last: "2024-03-04T23:59:00Z", now: "2024-03-05T00:01:00Z", line: "Last update: 03-04 23:59"),
        LastUpdatedCase(name: "across the year boundary",
                        last: "2023-12-31T23:59:00Z", now: "2024-01-01T00:01:00Z",
                        line: "Last update: 2023-12-31 23:59"),
        LastUpdatedCase(name: "the first minute of the year, seen on its last day",
                        last: "2024-01-01T00:00:00Z", now: "2024-12-31T23:59:00Z", line: "Last update: 01-01 00:00"),
        LastUpdatedCase(name: "a leap day",
                        last: "2024-02-29T12:30:00Z", now: "2024-03-01T08:00:00Z", line: "Last update: 02-29 12:30"),
        LastUpdatedCase(name: "months, days, hours and minutes are zero-padded",
                        last: "2024-01-02T03:04:00Z", now: "2024-05-06T07:08:00Z", line: "Last update: 01-02 03:04"),
        LastUpdatedCase(name: "years ago",
                        last: "2019-11-23T16:45:00Z", now: "2024-05-06T07:08:00Z",
                        line: "Last update: 2019-11-23 16:45"),

        // Time zones: the same two instants read differently depending on where the user is.
        LastUpdatedCase(name: "late yesterday in UTC",
                        last: "2024-03-05T23:30:00Z", now: "2024-03-06T00:10:00Z", zone: "UTC",
                        line: "Last update: 03-05 23:30"),
        LastUpdatedCase(name: "the same instants are this morning in Tokyo",
                        last: "2024-03-05T23:30:00Z", now: "2024-03-06T00:10:00Z", zone: "Asia/Tokyo",
                        line: "Last update: Today 08:30"),
        LastUpdatedCase(name: "the same instants are this evening in New York",
                        last: "2024-03-05T23:30:00Z", now: "2024-03-06T00:10:00Z", zone: "America/New_York",
                        line: "Last update: Today 18:30"),
        LastUpdatedCase(name: "a UTC year boundary that is today in Tokyo",
                        last: "2023-12-31T20:00:00Z", now: "2024-01-01T02:00:00Z", zone: "Asia/Tokyo",
                        line: "Last update: Today 05:00"),
        LastUpdatedCase(name: "a UTC year boundary that is today in Los Angeles",
                        last: "2023-12-31T20:00:00Z", now: "2024-01-01T02:00:00Z", zone: "America/Los_Angeles",
                        line: "Last update: Today 12:00"),
        LastUpdatedCase(name: "a new year in Tokyo that is still the old one in UTC",
                        last: "2023-12-31T14:00:00Z", now: "2023-12-31T16:00:00Z", zone: "Asia/Tokyo",
                        line: "Last update: 2023-12-31 23:00"),
        LastUpdatedCase(name: "a half-hour zone: after midnight in Kolkata",
                        last: "2024-06-15T18:45:00Z", now: "2024-06-16T03:00:00Z", zone: "Asia/Kolkata",
                        line: "Last update: Today 00:15"),
        LastUpdatedCase(name: "the 5th of two months in Berlin, just after midnight",
                        last: "2024-02-05T09:00:00+01:00", now: "2024-03-05T01:30:00+01:00", zone: "Europe/Berlin",
                        line: "Last update: 02-05 09:00"),
        LastUpdatedCase(name: "before and after the daylight-saving change on the same day",
                        last: "2024-03-31T01:30:00+01:00", now: "2024-03-31T03:30:00+02:00", zone: "Europe/Berlin",
                        line: "Last update: Today 01:30"),
    ]

    @Test(arguments: cases)
    func line(_ scenario: LastUpdatedCase) {
        let kind = LastUpdatedText(date: scenario.last.map(instant), now: instant(scenario.now),
                                   timeZone: zone(scenario.zone))
        #expect(englishLine(kind) == scenario.line)
    }

    @Test("the kind of line depends on the whole date", arguments: [
        ("2024-03-05T09:07:00Z", LastUpdatedText.today(hour: 9, minute: 7)),
        ("2024-02-05T09:07:00Z", .thisYear(month: 2, day: 5, hour: 9, minute: 7)),
        ("2023-03-05T09:07:00Z", .older(year: 2023, month: 3, day: 5, hour: 9, minute: 7)),
    ])
    func kind(last: String, expected: LastUpdatedText) {
        let kind = LastUpdatedText(date: instant(last), now: instant("2024-03-05T18:00:00Z"), timeZone: zone("UTC"))
        #expect(kind == expected)
        #expect(LastUpdatedText(date: nil, now: instant("2024-03-05T18:00:00Z"), timeZone: zone("UTC")) == .noRecord)
    }
}

/// The line in English, in MJRefresh's numeric patterns: what RefreshGtk shows untranslated.
private func englishLine(_ kind: LastUpdatedText) -> String {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let time = switch kind {
    case .noRecord: "Never"
    case let .today(hour, minute): "Today \(two(hour)):\(two(minute))"
    case let .thisYear(month, day, hour, minute): "\(two(month))-\(two(day)) \(two(hour)):\(two(minute))"
    case let .older(year, month, day, hour, minute): "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute))"
    }
    return "Last update: \(time)"
}
