import Foundation
import Testing
@testable import FeedCore

/// The tables dates and encodings are read with, checked entry by entry against references:
/// a wrong value in one shifts or garbles every entry of the feeds that use it.
@Suite("Zone names and charset labels, entry by entry")
struct ZoneAndCharsetTableTests {
    /// A zone name, its offset in minutes east of UTC, and a tzdata zone and month of 2024 in
    /// which that zone goes by that name (RFC 822 §5.1 for the North American and universal ones).
    struct Zone: CustomTestStringConvertible, Sendable {
        var name: String
        var minutes: Int
        var tzdata: String
        var month: Int
        var testDescription: String { name }
    }

    /// Every name of `FeedDate`'s zone table, all 32.
    static let zones: [Zone] = [
        Zone(name: "UT", minutes: 0, tzdata: "Etc/UTC", month: 1), Zone(name: "UTC", minutes: 0, tzdata: "Etc/UTC", month: 1),
        Zone(name: "GMT", minutes: 0, tzdata: "Etc/GMT", month: 1), Zone(name: "Z", minutes: 0, tzdata: "Etc/UTC", month: 1),
        Zone(name: "WET", minutes: 0, tzdata: "Europe/Lisbon", month: 1), Zone(name: "WEST", minutes: 60, tzdata: "Europe/Lisbon", month: 7),
        Zone(name: "EST", minutes: -300, tzdata: "America/New_York", month: 1), Zone(name: "EDT", minutes: -240, tzdata: "America/New_York", month: 7),
        Zone(name: "CST", minutes: -360, tzdata: "America/Chicago", month: 1), Zone(name: "CDT", minutes: -300, tzdata: "America/Chicago", month: 7),
        Zone(name: "MST", minutes: -420, tzdata: "America/Denver", month: 1), Zone(name: "MDT", minutes: -360, tzdata: "America/Denver", month: 7),
        Zone(name: "PST", minutes: -480, tzdata: "America/Los_Angeles", month: 1),
        Zone(name: "PDT", minutes: -420, tzdata: "America/Los_Angeles", month: 7),
        Zone(name: "AKST", minutes: -540, tzdata: "America/Anchorage", month: 1),
        Zone(name: "AKDT", minutes: -480, tzdata: "America/Anchorage", month: 7),
        Zone(name: "HST", minutes: -600, tzdata: "Pacific/Honolulu", month: 1),
        Zone(name: "BST", minutes: 60, tzdata: "Europe/London", month: 7), Zone(name: "IST", minutes: 330, tzdata: "Asia/Kolkata", month: 1),
        Zone(name: "CET", minutes: 60, tzdata: "Europe/Paris", month: 1), Zone(name: "CEST", minutes: 120, tzdata: "Europe/Paris", month: 7),
        Zone(name: "MET", minutes: 60, tzdata: "MET", month: 1), Zone(name: "MEST", minutes: 120, tzdata: "MET", month: 7),
        Zone(name: "EET", minutes: 120, tzdata: "Europe/Helsinki", month: 1), Zone(name: "EEST", minutes: 180, tzdata: "Europe/Helsinki", month: 7),
        Zone(name: "MSK", minutes: 180, tzdata: "Europe/Moscow", month: 1), Zone(name: "JST", minutes: 540, tzdata: "Asia/Tokyo", month: 1),
        Zone(name: "KST", minutes: 540, tzdata: "Asia/Seoul", month: 1),
        Zone(name: "AEST", minutes: 600, tzdata: "Australia/Sydney", month: 7), Zone(name: "AEDT", minutes: 660, tzdata: "Australia/Sydney", month: 1),
        Zone(name: "NZST", minutes: 720, tzdata: "Pacific/Auckland", month: 7), Zone(name: "NZDT", minutes: 780, tzdata: "Pacific/Auckland", month: 1),
    ]

    @Test(arguments: zones)
    func aZoneNameIsReadAsItsOffset(_ zone: Zone) throws {
        // 15 January and 15 July 2024 are Mondays.
        let local = "Mon, 15 \(zone.month == 1 ? "Jan" : "Jul") 2024 10:30:00"
        let localAsUTC = utc("2024-\(zone.month == 1 ? "01" : "07")-15T10:30:00Z")
        let expected = localAsUTC.addingTimeInterval(-Double(zone.minutes * 60))
        // The table of this test, against tzdata itself.
        let reference = try #require(TimeZone(identifier: zone.tzdata))
        #expect(reference.secondsFromGMT(for: expected) == zone.minutes * 60, "tzdata's \(zone.tzdata)")
        #expect(FeedDate.parse("\(local) \(zone.name)") == expected)
        #expect(FeedDate.parse("\(local) \(zone.name.lowercased())") == expected)
    }

    /// A charset label, bytes written in it, and the text they are (checked with Python's codecs).
    struct Label: CustomTestStringConvertible, Sendable {
        var label: String
        var bytes: [UInt8]
        var text: String
        var testDescription: String { label }
    }

    /// Each reading tells its encoding from its neighbours: "€" is 0x80 in windows-1252, not in
    /// ISO-8859-1; "丂" is in GBK, not GB2312; "①" is in CP932, not Shift_JIS; "갂" in CP949, not EUC-KR.
    static let families: [(labels: [String], bytes: [UInt8], text: String)] = [
        (["iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "x-cp1252"], [0x80, 0x43, 0x61, 0x66, 0xE9], "€Café"),
        (["iso-8859-9", "latin5"], [0x80, 0xFD, 0xF0], "€ığ"),
        (["iso-8859-11", "tis-620"], [0xA1, 0xB2], "กฒ"),
        (["x-cp1250"], [0x8A, 0xB9], "Šą"),
        (["x-cp1251"], [0xCD, 0xEE, 0xE2, 0xEE, 0xF1, 0xF2, 0xE8], "Новости"),
        (["gb2312", "gb-2312-80", "x-gbk", "chinese", "euc-cn", "x-euc-cn", "csgb2312"], [0x81, 0x40, 0xD6, 0xD0], "丂中"),
        (["big5", "x-x-big5", "big5-hkscs", "cn-big5"], [0xA4, 0xA4, 0xA4, 0xE5], "中文"),
        (["shift-jis", "sjis", "x-sjis", "ms-kanji", "windows-31j", "csshiftjis"], [0x93, 0xFA, 0x96, 0x7B, 0x87, 0x40], "日本①"),
        (["x-euc-jp", "cseucpkdfmtjapanese"], [0xC6, 0xFC, 0xCB, 0xDC], "日本"),
        (["euc-kr", "ks-c-5601-1987", "ks-c-5601-1989", "ksc5601", "korean", "windows-949"], [0xC7, 0xD1, 0xB1, 0xB9, 0x81, 0x41], "한국갂"),
        (["x-mac-roman", "mac"], [0x8E, 0xA5], "é•"),
        (["x-mac-cyrillic"], [0x80, 0xE0], "Аа"),
        (["koi8", "koi", "cskoi8r"], [0xEE, 0xCF, 0xD7, 0xCF, 0xD3, 0xD4, 0xC9], "Новости"),
        (["koi8-ru"], [0xA4], "є"),
        (["ebcdic-cp-us", "cp037", "ebcdic-cp-ca"], [0xC8, 0x89, 0x4A], "Hi¢"),
        (["ebcdic-international"], [0xC8, 0x89, 0x4A], "Hi["),
        (["utf-16", "unicode"], [0xFF, 0xFE, 0x48, 0x00, 0x69, 0x00], "Hi"),
        (["utf-32"], [0xFF, 0xFE, 0x00, 0x00, 0x48, 0x00, 0x00, 0x00], "H"),
    ]

    static let labels: [Label] = families.flatMap { family in family.labels.map { Label(label: $0, bytes: family.bytes, text: family.text) } }

    @Test func everyAliasOfTheTableIsHere() {
        #expect(Set(Self.labels.map(\.label)) == Set(TextDecoding.aliases.keys))
    }

    @Test(arguments: labels)
    func anAliasReadsItsEncoding(_ label: Label) throws {
        let name = try #require(TextDecoding.iconvName(forLabel: label.label))
        let utf8 = try #require(TextDecoding.utf8(Data(label.bytes), from: name))
        #expect(String(decoding: utf8, as: UTF8.self) == label.text, "\(label.label) read as \(name)")
        // Labels are matched whatever their case, as feeds write them.
        #expect(TextDecoding.iconvName(forLabel: label.label.uppercased()) == name)
    }
}
