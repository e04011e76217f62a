import CGtk
import RefreshGtk

/// The app's gettext domain; the refresh components translate in their own.
let appTextDomain = "feed-reader"

nonisolated(unsafe) private var appDomainBound = false

private func bindAppDomain() {
    guard !appDomainBound else { return }
    appDomainBound = true
    bindtextdomain(appTextDomain, LocaleDirectory.find())
    bind_textdomain_codeset(appTextDomain, "UTF-8")
}

/// Translates `msgid` in the app's domain.
func tr(_ msgid: String) -> String {
    bindAppDomain()
    // dgettext returns its msgid argument when untranslated: keep it alive until copied.
    return msgid.withCString { String(cString: dgettext(appTextDomain, $0)) }
}

/// Translates a message with a count, choosing the language's plural form.
func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    bindAppDomain()
    return singular.withCString { one in
        plural.withCString { many in String(cString: dngettext(appTextDomain, one, many, UInt(max(0, count)))) }
    }
}
