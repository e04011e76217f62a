import AppSupport

// The app's strings: gettext in the app's own domain, "feed-reader", whose catalogs sit beside
// the library's (LocaleDirectory.find(): the build tree's `locale` folder, or PREFIX/share/locale).
// The refresh components translate in their own domain, "refreshgtk"; both follow
// RefreshLocalization.setLanguage(_:).
//
// Mark every user-visible string with tr("...") or trn("...", "...", n) on a plain one-line
// literal (no interpolation: use %@ or %d and replace it), with a "// TRANSLATORS: ..." comment
// before any placeholder, so meson-helpers/update-po extracts it (see meson-helpers/po-common).
// N_("...") marks a literal translated later with tr(variable).

/// The app's gettext domain; the refresh components translate in their own.
public let appTextDomain = "feed-reader"

/// The app's domain, bound on first use (a global's lazy, thread-safe initialisation).
private let appDomain = GettextDomain(appTextDomain)

/// Translates `msgid` in the app's domain.
public func tr(_ msgid: String) -> String {
    // GettextDomain keeps the bridged msgid alive until dgettext's answer, which is that very
    // pointer when there is no translation, has been copied.
    appDomain.string(msgid)
}

/// Translates a message with a count, choosing the language's plural form (dngettext):
/// `trn("%d unread entry", "%d unread entries", count)`, then replace `%d` with the count.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    appDomain.plural(singular, plural, count: count)
}

/// Translates `msgid` in `context` (gettext's msgctxt, as a `.ui` file's `context="…"` gives it),
/// for the texts of GtkBuilder files, which are looked up as they load.
public func tr(context: String, _ msgid: String) -> String {
    // A catalog keys a message with a context as "context\u{4}msgid", and without a translation
    // the lookup answers that key.
    let key = context + "\u{4}" + msgid
    let translation = appDomain.string(key)
    return translation == key ? msgid : translation
}
