import CGtk
import Foundation
import RefreshCore

/// The header's last-updated line in the current language.
///
/// RefreshCore decides which form the line takes (``LastUpdatedText``: today, this year, an
/// older year, never); the line and its dates are translatable format strings, the dates laid
/// out by GLib's `g_date_time_format` in the formatter's time zone, so each language writes
/// them its own way ("Today 14:02", "5.3. 14:02", "3月5日 14:02"). A custom formatter wins.
@MainActor
enum LastUpdatedLine {
    /// The line for a last update at `date` (nil: never), with `formatter`'s clock and zone.
    static func string(for date: Date?, formatter: LastUpdatedFormatter) -> String {
        if let custom = formatter.custom { return custom(date) }
        let kind = LastUpdatedText(date: date, now: formatter.clock(), timeZone: formatter.timeZone)
        let time = timeText(kind, date: date, timeZone: formatter.timeZone)
        if let prefix = RefreshLocalization.overrideText(.headerLastTime) { return prefix + time }
        // TRANSLATORS: the header's second line; %s is when the list was last refreshed, as in "Last update: Today 14:02", "Last update: 03-05 14:02" or "Last update: Never".
        return substituting(time, into: RefreshLocalization.translate(N_("Last update: %s")))
    }

    /// The time part: "Never", "Today" and the time, or a date and time.
    static func timeText(_ kind: LastUpdatedText, date: Date?, timeZone: TimeZone) -> String {
        guard let date else { return RefreshLocalization.text(.headerNoneLastDate) }
        switch kind {
        case .noRecord:
            return RefreshLocalization.text(.headerNoneLastDate)
        case .today:
            // TRANSLATORS: the time of an update made today, after "Today", in g_date_time_format codes: %H hour 00-23, %M minute, %l hour 1-12, %p AM/PM. Use numbers only.
            let time = format(date, timeZone, N_("%H:%M"))
            if let today = RefreshLocalization.overrideText(.headerDateToday) { return "\(today) \(time)" }
            // TRANSLATORS: in the last-updated line, an update made today; %s is its time, as in "Last update: Today 14:02". Write it as it reads there, in your language's order ("today at 14:02").
            return substituting(time, into: RefreshLocalization.translate(N_("Today %s")))
        case .thisYear:
            // TRANSLATORS: the date and time of an update made earlier this year, in g_date_time_format codes: %m month 01-12, %d day 01-31, %-m and %-d without the leading zero, %H:%M the time as above. Use numbers only (month names may not be translated).
            // xgettext:no-c-format
            return format(date, timeZone, N_("%m-%d %H:%M"))
        case .older:
            // TRANSLATORS: the date and time of an update made in an earlier year, in g_date_time_format codes: %Y the year, %m month 01-12, %d day 01-31, %-m and %-d without the leading zero, %H:%M the time. Use numbers only (month names may not be translated).
            // xgettext:no-c-format
            return format(date, timeZone, N_("%Y-%m-%d %H:%M"))
        }
    }

    /// `date` in `timeZone` laid out by the translation of `pattern`, or by `pattern` itself
    /// when the translation is not a valid format.
    static func format(_ date: Date, _ timeZone: TimeZone, _ pattern: String) -> String {
        let translated = RefreshLocalization.translate(pattern)
        return dateTime(date, timeZone, translated) ?? dateTime(date, timeZone, pattern) ?? ""
    }

    /// `g_date_time_format` of `date` at `timeZone`'s offset for that instant: the same
    /// wall-clock time ``LastUpdatedText`` classified.
    static func dateTime(_ date: Date, _ timeZone: TimeZone, _ pattern: String) -> String? {
        let seconds = gint64(date.timeIntervalSince1970.rounded(.down))
        let zone = g_time_zone_new_offset(Int32(timeZone.secondsFromGMT(for: date)))
        defer { g_time_zone_unref(zone) }
        guard let utc = g_date_time_new_from_unix_utc(seconds) else { return nil }
        defer { g_date_time_unref(utc) }
        guard let local = g_date_time_to_timezone(utc, zone) else { return nil }
        defer { g_date_time_unref(local) }
        guard let text = g_date_time_format(local, pattern) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// `format` with its one string argument (`%s` or `%1$s`) replaced by `argument`, and `%%`
    /// by `%`; other characters are kept as they are.
    nonisolated static func substituting(_ argument: String, into format: String) -> String {
        var result = ""
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let directive = rest[rest.index(after: percent)...]
            if directive.hasPrefix("s") {
                result += argument
                rest = directive.dropFirst()
            } else if directive.hasPrefix("1$s") {
                result += argument
                rest = directive.dropFirst(3)
            } else if directive.hasPrefix("%") {
                result += "%"
                rest = directive.dropFirst()
            } else {
                result += "%"
                rest = directive
            }
        }
        return result + rest
    }
}
