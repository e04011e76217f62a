import Foundation
import GRDB
import Testing
@testable import FeedCore

@Suite("Dates written without DateFormatter")
struct UTCDateTextTests {
    static let dates: [Date] = [
        Date(timeIntervalSince1970: 0),
        Date(timeIntervalSince1970: 1_795_010_520.123_9),
        Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29, a leap day of a century
        Date(timeIntervalSince1970: 4_107_542_399.999),  // 2100-02-28 23:59:59.999, no leap day
        Date(timeIntervalSince1970: -0.5),
        Date(timeIntervalSince1970: -0.000_4),
        Date(timeIntervalSince1970: 86_399.999_7),  // rounds up into the next day
        Date(timeIntervalSince1970: -2_208_988_800.25),  // 1900-01-01, before 1970
        Date(timeIntervalSince1970: -11_644_473_600),  // 1601-01-01, the first day handled
        Date(timeIntervalSince1970: 253_402_300_799),  // 9999-12-31 23:59:59
    ]

    @Test("the text GRDB's DateFormatter writes, so stored dates compare equal", arguments: dates)
    func storageMatchesGRDB(date: Date) throws {
        let text = try #require(UTCDateText.storage(date))
        #expect(DatabaseValue(value: text) == date.databaseValue)
        #expect(Date.fromDatabaseValue(text.databaseValue) == Date.fromDatabaseValue(date.databaseValue))
    }

    @Test("RFC 1123 as DateFormatter writes it", arguments: dates)
    func rfc1123MatchesDateFormatter(date: Date) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(UTCDateText.rfc1123(date) == formatter.string(from: date))
    }

    @Test("years calendars disagree on are left to DateFormatter", arguments: [
        Date(timeIntervalSince1970: -11_644_473_600.001), Date(timeIntervalSince1970: 253_402_300_800), Date.distantPast,
    ])
    func outOfRange(date: Date) {
        #expect(UTCDateText.storage(date) == nil && UTCDateText.rfc1123(date) == nil)
        #expect(FeedStore.storageValue(date) == date.databaseValue)
    }
}
