import CAdw
import CGtk
import Foundation
@testable import RefreshGtk
import TestSupport
import XCTest
@testable import FeedReader

/// The About window: the app's own icon from a build tree, its addresses, and the release notes
/// of the metainfo the app ships.
final class AboutWindowTests: XCTestCase {
    func testTheAppIconIsFoundWhenRunFromTheBuildTree() throws {
        try onMain {
            let theme = gtk_icon_theme_get_for_display(gdk_display_get_default())
            AppData.addBuildTreeIcons()

            XCTAssertNotEqual(gtk_icon_theme_has_icon(theme, FeedReaderApp.applicationID), 0)
            let icon = try XCTUnwrap(gtk_icon_theme_lookup_icon(theme, FeedReaderApp.applicationID, nil, 128, 1, GTK_TEXT_DIR_NONE,
                                                                GtkIconLookupFlags(0)))
            defer { g_object_unref(cast(icon)) }
            let file = try XCTUnwrap(gtk_icon_paintable_get_file(icon))
            defer { g_object_unref(cast(file)) }
            let path = try XCTUnwrap(g_file_get_path(file))
            defer { g_free(path) }
            XCTAssertTrue(String(cString: path).hasSuffix("data/icons/hicolor/scalable/apps/\(FeedReaderApp.applicationID).svg"),
                          String(cString: path))
        }
    }

    func testTheShippedMetainfoGivesTheAddressesAndTheNewestReleasesNotes() throws {
        let metainfo = try XCTUnwrap(onMain { Metainfo.shipped }, "the build tree's data has the metainfo")

        XCTAssertEqual(metainfo.homepage, "https://github.com/refreshgtk/feed-reader")
        XCTAssertEqual(metainfo.issueTracker, "https://github.com/refreshgtk/feed-reader/issues")
        XCTAssertEqual(metainfo.developer, "RefreshGtk developers")
        XCTAssertEqual(metainfo.release?.version, CommandLineOption.version)
        XCTAssertTrue(metainfo.release?.notes.hasPrefix("<p>The first release of Feed Reader.</p><ul><li>Pull to refresh") == true,
                      metainfo.release?.notes ?? "no notes")
    }

    func testOnlyTheNewestReleaseIsShownWithItsMarkupKeptAndItsTextEscaped() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <component><releases>
              <release version="2.0" date="2027-01-01"><description>
                <p>Faster &amp; <em>calmer</em> refresh</p>
                <ul><li>Folders &lt;nested&gt;</li></ul>
              </description></release>
              <release version="1.0" date="2026-01-01"><description><p>Old</p></description></release>
            </releases></component>
            """

        let metainfo = try XCTUnwrap(Metainfo.read(text))

        XCTAssertEqual(metainfo.release?.version, "2.0")
        XCTAssertEqual(metainfo.release?.notes, "<p>Faster &amp; <em>calmer</em> refresh</p><ul><li>Folders &lt;nested&gt;</li></ul>")
        XCTAssertNil(Metainfo.read("<component><releases>"), "a cut-off file gives nothing rather than half")
    }

    /// An installed metainfo carries every paragraph and item once per language: What's New
    /// showed all 13 at once. It shows the language wanted, the nearest one gettext would fall
    /// back to, else the untranslated text; the rest of the file's translations do not leak in.
    func testTheNotesAreInTheLanguageShownWhenTheMetainfoCarriesTranslations() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <component><name>Feed Reader</name><name xml:lang="de">Feedleser</name>
              <developer><name>RefreshGtk developers</name><name xml:lang="fr">Les développeurs</name></developer>
              <releases><release version="2.0"><description>
                <p>Faster</p><p xml:lang="de">Schneller</p><p xml:lang="pt">Mais rápido</p><p xml:lang="pt_BR">Mais rápido (BR)</p>
                <p>Untranslated</p>
                <ul><li>Folders</li><li xml:lang="ar">مجلدات</li><li xml:lang="de">Ordner</li><li>Sync</li><li xml:lang="de">Abgleich</li></ul>
              </description></release></releases></component>
            """
        let cases: [(languages: [String], notes: String)] = [
            (["de"], "<p>Schneller</p><p>Untranslated</p><ul><li>Ordner</li><li>Abgleich</li></ul>"),
            (["pt_BR", "pt"], "<p>Mais rápido (BR)</p><p>Untranslated</p><ul><li>Folders</li><li>Sync</li></ul>"),
            (["pt_PT", "pt"], "<p>Mais rápido</p><p>Untranslated</p><ul><li>Folders</li><li>Sync</li></ul>"),
            (["ar"], "<p>Faster</p><p>Untranslated</p><ul><li>مجلدات</li><li>Sync</li></ul>"),
            (["en_GB", "en", "C"], "<p>Faster</p><p>Untranslated</p><ul><li>Folders</li><li>Sync</li></ul>"),
        ]
        for (languages, notes) in cases {
            let metainfo = try XCTUnwrap(Metainfo.read(text, languages: languages))
            XCTAssertEqual(metainfo.release?.notes, notes, "\(languages)")
        }
        XCTAssertEqual(Metainfo.read(text, languages: ["de"])?.developer, "RefreshGtk developers", "another language's name stays out")
    }

    /// The metainfo compile-po installs, with its translations merged, read in German: the
    /// notes are German, and only German.
    func testTheInstalledMetainfoShowsWhatsNewInOneLanguage() throws {
        let installed = try installedMetainfo()
        XCTAssertTrue(installed.contains("xml:lang=\"de\""), "the installed file carries the translations")

        let english = try XCTUnwrap(Metainfo.read(installed, languages: ["en"])?.release?.notes)
        let german = try XCTUnwrap(Metainfo.read(installed, languages: ["de"])?.release?.notes)
        XCTAssertEqual(german.components(separatedBy: "<li>").count, english.components(separatedBy: "<li>").count,
                       "as many items as in English: \(german)")
        XCTAssertEqual(german.components(separatedBy: "<p>").count, english.components(separatedBy: "<p>").count, german)
        XCTAssertNotEqual(german, english, "German: \(german)")
        XCTAssertFalse(german.contains(where: { ("\u{0600}"..."\u{06FF}").contains($0) }), "no Arabic among the German: \(german)")
    }

    /// "Translated by" said "The RefreshGtk authors", in English, in every language: each
    /// language credits its own team, in its own words, and English has no such section.
    func testEveryLanguageCreditsItsTranslatorsInItsOwnWords() {
        onMain {
            defer { LanguageChoice.speak(nil) }
            var credits: [String: String] = [:]
            for language in RefreshLocalization.availableLanguages {
                LanguageChoice.speak(language)
                credits[language] = AboutWindow.translatorCredits
            }
            XCTAssertEqual(credits.count, 12, "\(RefreshLocalization.availableLanguages)")
            XCTAssertEqual(Set(credits.values).count, credits.count, "one team per language: \(credits)")
            for (language, text) in credits {
                XCTAssertFalse(text.contains("RefreshGtk") || text.contains("authors"), "\(language): \(text)")
            }
            LanguageChoice.speak("en")
            XCTAssertNil(AboutWindow.translatorCredits)
        }
    }

    /// About in Arabic showed libadwaita's own texts (What's New, Credits, Legal) in English:
    /// Debian 12's libadwaita has no Arabic catalog, and the language chosen in Preferences never
    /// reached libadwaita's gettext. Chosen in the app, German and Arabic show in About whole.
    func testLibadwaitasOwnTextsAreInTheLanguageChosen() throws {
        try onMain {
            defer { LanguageChoice.speak(nil) }
            // Legal: the warranty sentence under each license, with the license's name.
            let cases: [(language: String, shown: [String], legal: [String])] = [
                ("de", ["Info", "_Neuigkeiten", "_Details", "_Webseite", "Ein _Problem melden", "_Mitwirkende", "_Rechtshinweis",
                        "Code von", "Übersetzung von"], ["GARANTIE", ">Apache Lizenz, Version 2.0<", ">Die MIT-Lizenz (MIT)<"]),
                ("ar", ["عن التطبيق", "_ما الجديد", "ال_تفاصيل", "ال_موقع", "أ_بلغ عن مشكلة", "ال_مساهمون", "الشؤون ال_قانونية",
                        "البرمجة", "الترجمة"], ["دون أي ضمان", ">رخصة أباتشي، الإصدار 2.0<", ">رخصة MIT<"]),
            ]
            let english = ["About", "_What’s New", "_Details", "_Website", "_Report an Issue", "_Credits", "_Legal", "Code by",
                           "Translated by"]
            for (language, shown, legal) in cases {
                LanguageChoice.speak(language)
                let about = AboutWindow.make()
                defer { gtk_window_destroy(cast(about)) }
                let texts = Self.texts(of: about)
                for text in shown { XCTAssertTrue(texts.contains(text), "\(language): \(text) in \(texts.sorted())") }
                for text in english where !shown.contains(text) {
                    XCTAssertFalse(texts.contains(text), "\(language): no English \(text)")
                }
                for license in legal.dropFirst() {
                    XCTAssertTrue(texts.contains { $0.contains(legal[0]) && $0.contains(license) && $0.contains("href=\"https://") },
                                  "\(language): the warranty sentence of \(license), with its link")
                }
                XCTAssertFalse(texts.contains { $0.contains("absolutely no warranty") }, "\(language): no English warranty sentence")
                // What's New's heading over each version's notes, which libadwaita writes into a text view.
                let notes = Self.textViewLines(of: about)
                XCTAssertFalse(notes.contains { $0.hasPrefix("Version ") } && language == "ar", "ar: no English version heading in \(notes)")
                XCTAssertTrue(notes.contains(language == "ar" ? "الإصدار 0.1.0" : "Version 0.1.0"), "\(language): the version heading in \(notes)")
                gtk_window_present(cast(about))
                XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(about) != 0 })
                GtkTestEnvironment.waitForFrames(of: about)
                XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(about, name: "about-\(language)") })
            }
        }
    }

    /// The lines of every text view in `widget` and its descendants.
    @MainActor
    private static func textViewLines(of widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var lines: [String] = []
        if g_type_check_instance_is_a(cast(widget), gtk_text_view_get_type()) != 0, let buffer = gtk_text_view_get_buffer(cast(widget)) {
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            if let text = gtk_text_buffer_get_text(buffer, &start, &end, 0) {
                lines += String(cString: text).components(separatedBy: "\n")
                g_free(text)
            }
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            lines += textViewLines(of: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return lines
    }

    /// Every text `widget` and its descendants show: labels, titles, subtitles and tooltips.
    @MainActor
    private static func texts(of widget: UnsafeMutablePointer<GtkWidget>) -> Set<String> {
        var texts = Set<String>()
        let type = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self).pointee.g_class
        for property in ["title", "label", "subtitle", "tooltip-text"] {
            guard let type, let spec = g_object_class_find_property(cast(type), property), spec.pointee.value_type == GType(16 << 2) else { continue }
            var value = GValue()
            g_value_init(&value, GType(16 << 2))
            g_object_get_property(cast(widget), property, &value)
            if let text = g_value_get_string(&value) { texts.insert(String(cString: text)) }
            g_value_unset(&value)
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            texts.formUnion(Self.texts(of: current))
            child = gtk_widget_get_next_sibling(current)
        }
        return texts
    }

    func testTheWindowShowsTheVersionAddressesAndReleaseNotes() throws {
        try onMain {
            let parent = gtk_window_new()!
            defer { gtk_window_destroy(cast(parent)) }
            let about = AboutWindow.present(over: parent)
            defer { gtk_window_destroy(cast(about)) }

            XCTAssertEqual(String(cString: adw_about_window_get_version(cast(about))), CommandLineOption.version)
            XCTAssertEqual(String(cString: adw_about_window_get_application_icon(cast(about))), FeedReaderApp.applicationID)
            XCTAssertEqual(String(cString: adw_about_window_get_website(cast(about))), "https://github.com/refreshgtk/feed-reader")
            XCTAssertEqual(String(cString: adw_about_window_get_issue_url(cast(about))), "https://github.com/refreshgtk/feed-reader/issues")
            XCTAssertEqual(adw_about_window_get_release_notes_version(cast(about)).map { String(cString: $0) }, CommandLineOption.version)
            let developers = adw_about_window_get_developers(cast(about))
            XCTAssertEqual(developers?[0].map { String(cString: $0) }, "RefreshGtk developers https://github.com/refreshgtk/feed-reader",
                           "Credits name the metainfo's developer, not a placeholder")
            XCTAssertNil(developers?[1])
            XCTAssertTrue(GtkTestEnvironment.iterate { gtk_widget_get_mapped(about) != 0 })
            XCTAssertTrue(GtkTestEnvironment.iterate { saveRender(about, name: "about") })
        }
    }
}
