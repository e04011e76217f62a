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

    @Test("stored text read back as GRDB reads it", arguments: dates)
    func readingMatchesGRDB(date: Date) throws {
        // GRDB's own text, as the rows written before UTCDateText have it.
        let stored = date.databaseValue
        let text = try #require(String.fromDatabaseValue(stored))
        let read = try #require(UTCDateText.date(fromStorage: text))
        let grdb = try #require(Date.fromDatabaseValue(stored))
        #expect(abs(read.timeIntervalSince1970 - grdb.timeIntervalSince1970) < 0.000_001)
        #expect(UTCDateText.storage(read) == text)
    }

    @Test("other texts are not read as dates", arguments: [
        "", "2026-11-27", "2026-13-01 00:00:00", "2026-02-01 24:00:00", "2026-02-01 00:00:00.", "2026-02-01 00:00:00.1234567890",
        "2026/02/01 00:00:00", "２026-02-01 00:00:00", "2026-02-01 00:00:00Z",
    ])
    func malformed(text: String) {
        #expect(UTCDateText.date(fromStorage: text) == nil)
    }

    @Test func aRowsDatesAreReadWhateverWroteThem() throws {
        let database = try DatabaseQueue()
        let date = Date(timeIntervalSince1970: 1_795_010_520.123)
        let rows = try database.write { db in
            try db.execute(sql: "CREATE TABLE t (ours, grdbs, seconds, missing)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, NULL)", arguments: [FeedStore.storageValue(date), date, date.timeIntervalSince1970])
            return try Row.fetchOne(db, sql: "SELECT * FROM t")
        }
        let row = try #require(rows)
        for column in ["ours", "grdbs", "seconds"] {
            #expect(abs((row.utcDate(column)?.timeIntervalSince1970 ?? 0) - date.timeIntervalSince1970) < 0.000_001, "\(column)")
        }
        #expect(row.utcDate("missing") == nil)
    }
}
