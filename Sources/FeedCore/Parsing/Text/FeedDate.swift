import Foundation

/// Parses the dates found in feeds without `DateFormatter`, which is slow to create and locale-dependent.
///
/// Accepts RFC 822/1123 (`Tue, 05 Mar 2024 10:00:00 GMT`) and RFC 3339/ISO 8601
/// (`2024-03-05T10:00:00Z`), forgiving what real feeds get wrong: missing seconds or weekday,
/// named or military zones, any letter case, extra spaces, two-digit years and ISO dates without a zone
/// (taken as UTC).
enum FeedDate {
    /// Returns the instant `text` names, or nil when it is not a recognisable date.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// `parse(_:)` of a date written in UTF-8, for text still in the bytes it was read into.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var start = 0
        while start < bytes.count, bytes[start].isASCIIWhitespace { start += 1 }
        let rest = UnsafeBufferPointer(rebasing: bytes[start...])
        if looksLikeISO(rest) {
            return parseISO(rest)
        }
        return parseRFC822(rest)
    }

    /// Formats `date` as RFC 3339 in UTC, with whole seconds: `2024-03-05T10:00:00Z`.
    static func iso8601String(from date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    // MARK: - ISO 8601

    private static func looksLikeISO(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 7 && bytes[0...3].allSatisfy(\.isASCIIDigit) && bytes[4] == UInt8(ascii: "-")
    }

    private static func parseISO(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var reader = DateReader(bytes: bytes)
        guard let year = reader.number(maxDigits: 4), reader.skip("-"),
              let month = reader.number(maxDigits: 2)
        else { return nil }
        let day = reader.skip("-") ? reader.number(maxDigits: 2) : 1
        guard let day else { return nil }
        var time = TimeOfDay()
        if reader.skip("T") || reader.skip("t") || reader.skip(" ") {
            reader.skipSpaces()
            guard let parsed = reader.timeOfDay() else { return nil }
            time = parsed
        }
        reader.skipSpaces()
        let offset: Int
        if reader.isAtEnd {
            offset = 0
        } else {
            guard let parsed = reader.zoneOffset() else { return nil }
            offset = parsed
        }
        reader.skipSpaces()
        guard reader.isAtEnd else { return nil }
        return makeDate(year: year, month: month, day: day, time: time, offsetMinutes: offset)
    }

    // MARK: - RFC 822

    private static func parseRFC822(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var reader = DateReader(bytes: bytes)
        // A date has two numbers besides its time: the day and the year.
        var numbers: (DateNumber, DateNumber) = (DateNumber(), DateNumber())
        var numberCount = 0
        var month: Int?
        var time: TimeOfDay?
        var offset: Int?
        var afternoon: Bool?
        while true {
            reader.skipSeparators()
            if reader.isAtEnd { break }
            let byte = reader.peek
            if byte.isASCIIDigit {
                if time == nil, let parsed = reader.timeOfDay() {
                    time = parsed
                    continue
                }
                let start = reader.position
                guard let value = reader.number(maxDigits: 4), numberCount < 2 else { return nil }
                let number = DateNumber(value: value, digits: reader.position - start)
                if numberCount == 0 { numbers.0 = number } else { numbers.1 = number }
                numberCount += 1
            } else if (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && time != nil && offset == nil {
                guard let parsed = reader.zoneOffset() else { return nil }
                offset = parsed
            } else if byte == UInt8(ascii: "-") {
                // Before the time a dash separates date fields, as in "05-Mar-2024".
                reader.position += 1
            } else if byte.isASCIILetter || byte >= 0x80 {
                let word = reader.word()
                let prefix = word.prefix
                // "mar, 16 nov" (French): a day name before a comma, though "mar" is also a month.
                if weekdays.contains(word.key) || weekdays.contains(prefix), !reader.isAtEnd, reader.peek == UInt8(ascii: ",") {
                    continue
                }
                if let value = months[word.key] ?? months[prefix], month == nil, word.count >= 3 {
                    month = value
                } else if weekdays.contains(prefix), word.count >= 3 {
                    continue
                } else if word.key == Self.am || word.key == Self.pm {
                    afternoon = word.key == Self.pm
                } else if let value = zoneOffsets[word.key], offset == nil {
                    offset = value
                    reader.skipSpaces()
                    if reader.isAtEnd == false, reader.peek == UInt8(ascii: "+") || reader.peek == UInt8(ascii: "-") {
                        // "GMT+0100": a named zone followed by an offset from it.
                        guard let extra = reader.zoneOffset() else { return nil }
                        offset = value + extra
                    }
                } else if word.count == 1, offset == nil {
                    // RFC 822 military zones had their signs documented backwards; RFC 2822 says treat them as UTC.
                    offset = 0
                } else {
                    return nil
                }
            } else {
                return nil
            }
        }
        guard let month, numberCount == 2 else { return nil }
        let (dayNumber, yearNumber) = numbers.0.digits <= 2 && numbers.0.value <= 31 && numbers.1.digits != 1
            ? numbers
            : (numbers.1, numbers.0)
        var year = yearNumber.value
        switch yearNumber.digits {
        case 1, 2: year += year < 50 ? 2000 : 1900
        case 3: year += 1900
        default: break
        }
        var timeOfDay = time ?? TimeOfDay()
        if let afternoon {
            guard (1...12).contains(timeOfDay.hour) else { return nil }
            timeOfDay.hour = timeOfDay.hour % 12 + (afternoon ? 12 : 0)
        }
        return makeDate(year: year, month: month, day: dayNumber.value, time: timeOfDay, offsetMinutes: offset ?? 0)
    }

    /// Month names by their first three letters (or whole, where three are ambiguous), in the
    /// languages feeds are dated in besides English: French, German, Spanish, Italian,
    /// Portuguese and Dutch.
    private static let months: [DateWord.Key: Int] = DateWord.keyed([
        "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
        "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
        "fév": 2, "fev": 2, "avr": 4, "mai": 5, "juin": 6, "juil": 7, "aoû": 8, "aou": 8, "déc": 12,
        "mär": 3, "mrz": 3, "okt": 10, "dez": 12,
        "ene": 1, "abr": 4, "ago": 8, "set": 9, "dic": 12,
        "gen": 1, "mag": 5, "giu": 6, "lug": 7, "ott": 10, "out": 10,
        "mrt": 3, "mei": 5,
    ])

    /// Day names, which carry nothing a date needs: English, then the languages of `months`.
    private static let weekdays: Set<DateWord.Key> = DateWord.keys([
        "mon", "tue", "wed", "thu", "fri", "sat", "sun",
        "lun", "mar", "mer", "jeu", "ven", "sam", "dim",
        "mo", "di", "mi", "do", "fr", "sa", "so",
        "mié", "mie", "jue", "vie", "sáb", "sab", "dom", "gio",
        "seg", "ter", "qua", "qui", "sex",
        "ma", "wo", "vr", "za", "zo",
    ])

    private static let am = DateWord.key("am"), pm = DateWord.key("pm")

    /// Zone names seen in feeds, as minutes east of UTC.
    private static let zoneOffsets: [DateWord.Key: Int] = DateWord.keyed([
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0,
        "est": -300, "edt": -240, "cst": -360, "cdt": -300,
        "mst": -420, "mdt": -360, "pst": -480, "pdt": -420,
        "akst": -540, "akdt": -480, "hst": -600,
        "bst": 60, "ist": 330, "cet": 60, "cest": 120, "met": 60, "mest": 120, "west": 60,
        "eet": 120, "eest": 180, "msk": 180, "jst": 540, "kst": 540,
        "aest": 600, "aedt": 660, "nzst": 720, "nzdt": 780,
    ])

    // MARK: - Calendar arithmetic

    private static func makeDate(year: Int, month: Int, day: Int, time: TimeOfDay, offsetMinutes: Int) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              (0...24).contains(time.hour), (0...59).contains(time.minute), (0...60).contains(time.second),
              time.hour < 24 || (time.minute == 0 && time.second == 0)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second - offsetMinutes * 60
        return Date(timeIntervalSince1970: TimeInterval(seconds) + time.fraction)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian year, month and day `days` after 1970-01-01 (Howard Hinnant's
    /// days-to-civil: eras of 400 years starting on 1 March).
    static func civilDate(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A day or year as read from a date string, with the digits it was written in.
private struct DateNumber {
    var value = 0
    var digits = 0
}

/// A lowercased word of a date, packed for the name tables: dates are parsed by the thousand,
/// and making, lowercasing and hashing a string for each word cost more than the rest.
private struct DateWord {
    /// Up to the first eight bytes of the lowercased UTF-8, zero-padded; no name is longer.
    typealias Key = UInt64

    /// The whole word's key; words of more than eight bytes get one that matches no name.
    let key: Key
    /// The key of the first three characters, which name a month or day in most languages.
    let prefix: Key
    /// The number of characters.
    let count: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            // Accented capitals ("DÉC") need Unicode's lowercasing; such words are rare.
            var lowered = String(decoding: bytes, as: UTF8.self).lowercased()
            self = lowered.withUTF8 { Self(lowercased: $0) }
            return
        }
        self.init(lowercased: bytes)
    }

    /// Packs bytes already lowercased, except for ASCII capitals, which it lowers itself.
    private init(lowercased bytes: UnsafeBufferPointer<UInt8>) {
        var key: Key = 0, prefix: Key = 0, characters = 0
        for (index, byte) in bytes.enumerated() {
            let isContinuation = byte & 0xC0 == 0x80
            if !isContinuation { characters += 1 }
            guard index < 8 else { continue }
            let lowered = byte.isASCIILetter ? byte | 0x20 : byte
            key |= Key(lowered) << (8 * index)
            if characters <= 3 { prefix = key }
        }
        self.key = bytes.count <= 8 ? key : .max
        self.prefix = prefix
        count = characters
    }

    /// The key of a lowercase name.
    static func key(_ name: String) -> Key {
        var name = name
        return name.withUTF8 { DateWord(lowercased: $0).key }
    }

    /// A table of lowercase names as one of keys.
    static func keyed<Value>(_ table: KeyValuePairs<String, Value>) -> [Key: Value] {
        Dictionary(table.map { (key($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// A set of lowercase names as one of keys.
    static func keys(_ names: [String]) -> Set<Key> {
        Set(names.map(key))
    }
}

/// A time of day as read from a date string.
private struct TimeOfDay {
    var hour = 0
    var minute = 0
    var second = 0
    var fraction: TimeInterval = 0
}

/// A cursor over the bytes of a date string.
private struct DateReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position >= bytes.count }
    var peek: UInt8 { bytes[position] }

    /// Skips `scalar` (ASCII) if it comes next. A `Unicode.Scalar`, not a `Character`: a
    /// Character's `asciiValue` costs grapheme work on every call, and dates call this often.
    mutating func skip(_ scalar: Unicode.Scalar) -> Bool {
        guard !isAtEnd, scalar.isASCII, peek == UInt8(truncatingIfNeeded: scalar.value) else { return false }
        position += 1
        return true
    }

    mutating func skipSpaces() {
        while !isAtEnd, peek.isASCIIWhitespace { position += 1 }
    }

    /// Skips the spaces and punctuation that separate RFC 822 fields; dashes are left to the caller,
    /// since after the time they start a zone offset.
    mutating func skipSeparators() {
        while !isAtEnd, peek.isASCIIWhitespace || peek == UInt8(ascii: ",") || peek == UInt8(ascii: "/") || peek == UInt8(ascii: ".") {
            position += 1
        }
    }

    /// Reads one to `maxDigits` decimal digits.
    mutating func number(maxDigits: Int) -> Int? {
        var value = 0
        var count = 0
        while !isAtEnd, peek.isASCIIDigit, count < maxDigits {
            value = value * 10 + Int(peek - UInt8(ascii: "0"))
            position += 1
            count += 1
        }
        return count == 0 ? nil : value
    }

    /// Reads a run of letters.
    mutating func word() -> DateWord {
        let start = position
        while !isAtEnd, peek.isASCIILetter || peek >= 0x80 { position += 1 }
        return DateWord(UnsafeBufferPointer(rebasing: bytes[start..<position]))
    }

    /// Reads `hh:mm[:ss[.fraction]]`, restoring the position when the text is not a time.
    mutating func timeOfDay() -> TimeOfDay? {
        let start = position
        guard let hour = number(maxDigits: 2), skip(":"), let minute = number(maxDigits: 2) else {
            position = start
            return nil
        }
        var time = TimeOfDay(hour: hour, minute: minute)
        if skip(":") {
            guard let second = number(maxDigits: 2) else { return nil }
            time.second = second
            if skip(".") || skip(",") {
                var scale = 0.1
                while !isAtEnd, peek.isASCIIDigit {
                    time.fraction += Double(peek - UInt8(ascii: "0")) * scale
                    scale /= 10
                    position += 1
                }
            }
        }
        return time
    }

    /// Reads `Z`, `+hh:mm`, `+hhmm`, `+hh` or a zone name, as minutes east of UTC.
    mutating func zoneOffset() -> Int? {
        guard !isAtEnd else { return nil }
        if peek.isASCIILetter {
            let name = word()
            return name.count == 1 ? 0 : FeedDate.zoneOffset(named: name.key)
        }
        let sign = peek == UInt8(ascii: "-") ? -1 : 1
        guard peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") else { return nil }
        position += 1
        let start = position
        guard let first = number(maxDigits: 4) else { return nil }
        let hours: Int
        var minutes = 0
        switch position - start {
        case 4: (hours, minutes) = (first / 100, first % 100)
        case 1, 2:
            hours = first
            if skip(":") {
                guard let parsed = number(maxDigits: 2) else { return nil }
                minutes = parsed
            }
        default: return nil
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return sign * (hours * 60 + minutes)
    }
}

extension FeedDate {
    fileprivate static func zoneOffset(named name: DateWord.Key) -> Int? {
        zoneOffsets[name]
    }
}
