import AppSupport
import CAdw
import CGLib
import CGtk
import RefreshGtk

/// libadwaita's own texts in a window it builds (About's What's New, Credits, Legal...), in the
/// language the app speaks.
///
/// libadwaita translates through gettext, which follows the language chosen from the switch on
/// (``GettextLanguage``), so what libadwaita builds before a switch keeps the language it was
/// built in; and Debian 12's libadwaita 1.2 ships no Arabic catalog at all. So these texts are
/// said again: from libadwaita's catalog of the language chosen, else from the app's own
/// translation of the same text, which covers a language libadwaita has no catalog for.
@MainActor
enum AdwaitaTexts {
    /// libadwaita's domain, read from the folder libadwaita bound it to.
    private static let domain: GettextDomain = {
        let folder = bindtextdomain("libadwaita", nil).map { String(cString: $0) } ?? LocaleDirectory.find()
        return GettextDomain("libadwaita", localeDirectory: folder)
    }()

    /// Marks a libadwaita msgid for the app's catalogs; translated later, by ``said(_:)``.
    private static func N_(_ msgid: String) -> String { msgid }

    /// The texts the About window shows, as libadwaita 1.2 writes them (msgids of its catalog).
    static let aboutTexts = [
        N_("About"), N_("Back"), N_("What’s New"), N_("_What’s New"), N_("Details"), N_("_Details"),
        N_("_Website"), N_("_Report an Issue"), N_("Credits"), N_("_Credits"), N_("Legal"), N_("_Legal"),
        N_("Code by"), N_("Translated by"), N_("This Application"), N_("The MIT License (MIT)"), N_("Apache License, Version 2.0"),
    ]

    /// The texts the Preferences window's own search shows.
    static let preferencesTexts = [N_("Search"), N_("No Results Found"), N_("Try a different search.")]

    /// The texts inside an entry row: its Apply button's, and a password row's Show Text or Hide
    /// Text button's and its Caps Lock warning.
    static let entryRowTexts = [N_("Apply"), N_("Show Text"), N_("Hide Text"), N_("Caps Lock is on")]

    /// What each text this put on a widget translates, so that a window that lives across a
    /// switch (Preferences) is said again from whatever language it was in.
    private static var written: [String: String] = [:]

    /// The sentence under a license on the Legal page; %s are the license's address and name.
    static let licenseSentence = N_("This application comes with absolutely no warranty. See the <a href=\"%s\">%s</a> for details.")

    /// `msgid` in the language the app speaks: libadwaita's translation, else the app's own.
    static func said(_ msgid: String) -> String {
        let adwaita = domain.string(msgid)
        return adwaita != msgid ? adwaita : tr(msgid)
    }

    /// Says again, in the app's language, every text of `aboutTexts` the About window `root`
    /// shows, whichever language gettext gave them in.
    static func translateAbout(_ root: UnsafeMutablePointer<GtkWidget>) {
        translate(root, aboutTexts, licenses: true)
        Widgets.forEach(in: root) { widget in
            guard g_type_check_instance_is_a(cast(widget), gtk_text_view_get_type()) != 0 else { return }
            translateVersionHeadings(in: gtk_text_view_get_buffer(cast(widget)))
        }
    }

    /// What's New's heading over each version's notes; %s is the version.
    static let versionHeading = N_("Version %s")

    /// Says again, with its tags, each line of `buffer` that is a version's heading: libadwaita 1.2
    /// writes What's New into a text view, where the texts of the window's widgets do not reach.
    private static func translateVersionHeadings(in buffer: UnsafeMutablePointer<GtkTextBuffer>) {
        let heading = said(versionHeading)
        let prefixes = Set([versionHeading, versionHeading.withCString { String(cString: dgettext("libadwaita", $0)) }, heading]
            .compactMap { $0.components(separatedBy: "%s").first }.filter { !$0.isEmpty })
        for prefix in prefixes {
            var from = GtkTextIter(), start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_start_iter(buffer, &from)
            while gtk_text_iter_forward_search(&from, prefix, GTK_TEXT_SEARCH_TEXT_ONLY, &start, &end, nil) != 0 {
                from = end
                guard gtk_text_iter_starts_line(&start) != 0 else { continue }
                var lineEnd = end
                if gtk_text_iter_ends_line(&lineEnd) == 0 { gtk_text_iter_forward_to_line_end(&lineEnd) }
                guard let versionText = gtk_text_iter_get_text(&end, &lineEnd) else { continue }
                let version = String(cString: versionText)
                g_free(versionText)
                let translated = fill(heading, with: [version])
                guard translated != prefix + version else { continue }
                let tags = gtk_text_iter_get_tags(&start)
                defer { g_slist_free(tags) }
                let offset = gtk_text_iter_get_offset(&start)
                gtk_text_buffer_delete(buffer, &start, &lineEnd)
                gtk_text_buffer_insert(buffer, &start, translated, -1)
                var headingStart = GtkTextIter()
                gtk_text_buffer_get_iter_at_offset(buffer, &headingStart, offset)
                var tag = tags
                while let node = tag {
                    gtk_text_buffer_apply_tag(buffer, cast(node.pointee.data), &headingStart, &start)
                    tag = node.pointee.next
                }
                from = start
            }
        }
    }

    /// Says again, in the app's language, the texts of `preferencesTexts` the Preferences window
    /// `root` shows, whichever language they are in now.
    static func translatePreferences(_ root: UnsafeMutablePointer<GtkWidget>) {
        translate(root, preferencesTexts, licenses: false)
    }

    /// Says every entry row's own texts (``entryRowTexts``) in the app's language as the row is
    /// realized, wherever it is, and again whenever libadwaita sets one (Show Text turning into
    /// Hide Text): an entry row made after a switch to a language libadwaita has no catalog for
    /// (Arabic) would show them in English.
    static func followEntryRows() {
        guard !followsEntryRows else { return }
        followsEntryRows = true
        g_signal_add_emission_hook(g_signal_lookup("realize", gtk_widget_get_type()), 0, { _, _, values, _ in
            guard let values, let object = g_value_get_object(values) else { return 1 }
            MainActor.assumeIsolated { AdwaitaTexts.follow(realized: cast(object)) }
            // Kept: every widget's realize is watched.
            return 1
        }, nil, nil)
    }

    /// Follows the texts inside `widget`, just realized, if it is an entry row not followed yet.
    private static func follow(realized widget: UnsafeMutablePointer<GtkWidget>) {
        guard g_type_check_instance_is_a(cast(widget), adw_entry_row_get_type()) != 0,
              g_object_get_data(cast(widget), followedKey) == nil else { return }
        g_object_set_data(cast(widget), followedKey, widget)
        Widgets.forEach(in: widget) { part in
            guard part != widget else { return }
            translate(part, entryRowTexts, licenses: false)
            Signal.connectIgnoringArgument(cast(part), "notify::tooltip-text") { translate(part, entryRowTexts, licenses: false) }
        }
    }

    private static var followsEntryRows = false
    /// Marks an entry row whose texts ``followEntryRows()`` follows already.
    private static let followedKey = "feed-reader-adwaita-texts"

    private static func translate(_ root: UnsafeMutablePointer<GtkWidget>, _ texts: [String], licenses: Bool) {
        // What a text may read now: its msgid, gettext's translation of it, or what this wrote.
        var msgids = written.filter { texts.contains($0.value) }
        for msgid in texts {
            msgids[msgid] = msgid
            msgids[msgid.withCString { String(cString: dgettext("libadwaita", $0)) }] = msgid
        }
        let sentences = licenses ? [licenseSentence, licenseSentence.withCString { String(cString: dgettext("libadwaita", $0)) }] : []
        let translate = { (text: String) -> String? in
            if let msgid = msgids[text] {
                let translation = said(msgid)
                written[translation] = msgid
                return translation
            }
            // The Legal page writes the copyright, then the sentence.
            for sentence in sentences {
                if let match = values(filling: sentence, in: text), match.values.count == 2 {
                    let name = msgids[match.values[1]].map(said) ?? match.values[1]
                    return match.before + fill(said(licenseSentence), with: [match.values[0], name])
                }
            }
            return nil
        }
        Widgets.forEach(in: root) { widget in
            let type = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self).pointee.g_class
            for property in ["title", "label", "subtitle", "tooltip-text"] {
                guard let type, let spec = g_object_class_find_property(cast(type), property),
                      spec.pointee.value_type == .string else { continue }
                let text: String = ObjectProperty.get(widget, property)
                if let translated = translate(text), translated != text { ObjectProperty.set(widget, property, translated) }
            }
        }
    }

    /// The values `pattern`'s `%s` stand for in `text`, and the text before, if `text` ends with
    /// `pattern` filled.
    static func values(filling pattern: String, in text: String) -> (before: String, values: [String])? {
        let parts = pattern.components(separatedBy: "%s")
        guard parts.count > 1, !parts[0].isEmpty, let start = text.range(of: parts[0]) else { return nil }
        var rest = text[start.upperBound...]
        var values: [String] = []
        for part in parts.dropFirst() {
            if part.isEmpty {
                values.append(String(rest))
                rest = ""
                continue
            }
            guard let range = rest.range(of: part) else { return nil }
            values.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        return rest.isEmpty ? (String(text[..<start.lowerBound]), values) : nil
    }

    /// `pattern` with its `%s` replaced by `values`, in order.
    static func fill(_ pattern: String, with values: [String]) -> String {
        var parts = pattern.components(separatedBy: "%s")
        var text = parts.removeFirst()
        for (index, part) in parts.enumerated() {
            text += (index < values.count ? values[index] : "") + part
        }
        return text
    }
}
