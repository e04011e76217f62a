import CGtk
import Foundation

/// How an entry's date reads in the list, in the user's locale: a time today, a day this year,
/// a full date before.
enum EntryDateText {
    static func text(for date: Date, now: Date = Date()) -> String {
        guard let moment = g_date_time_new_from_unix_local(gint64(date.timeIntervalSince1970)),
              let today = g_date_time_new_from_unix_local(gint64(now.timeIntervalSince1970)) else { return "" }
        defer {
            g_date_time_unref(moment)
            g_date_time_unref(today)
        }
        let format: String
        if g_date_time_get_year(moment) == g_date_time_get_year(today),
           g_date_time_get_day_of_year(moment) == g_date_time_get_day_of_year(today) {
            // TRANSLATORS: time of an entry published today, in strftime format (see `man strftime`).
            format = tr("%H:%M")
        } else if g_date_time_get_year(moment) == g_date_time_get_year(today) {
            // TRANSLATORS: date of an entry published this year, in strftime format.
            format = tr("%b %-e")
        } else {
            // TRANSLATORS: date of an entry published in an earlier year, in strftime format.
            format = tr("%b %-e, %Y")
        }
        guard let text = g_date_time_format(moment, format) else { return "" }
        defer { g_free(text) }
        return String(cString: text).trimmingCharacters(in: .whitespaces)
    }
}
