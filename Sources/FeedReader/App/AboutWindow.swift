import CAdw
import CGtk
import Foundation
import RefreshGtk

/// The About window: the app's name, icon and version, its site and issue tracker, who made and
/// translated it, its license and the code it bundles, and the newest release's notes from the
/// metainfo it ships.
@MainActor
enum AboutWindow {
    static let file = "app/about-window.ui"

    /// Shows the window over `parent`; returns it.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>,
                        metainfo: Metainfo? = Metainfo.shipped) -> UnsafeMutablePointer<GtkWidget> {
        let about = make(metainfo: metainfo)
        gtk_window_set_transient_for(cast(about), cast(parent))
        gtk_window_present(cast(about))
        return about
    }

    /// The window from its file, in the current language, with what `metainfo` says; not yet shown.
    static func make(metainfo: Metainfo? = Metainfo.shipped) -> UnsafeMutablePointer<GtkWidget> {
        // A window from a builder is GTK's until it is destroyed, as it closes.
        let about = BuilderFile(file).widget("window")
        adw_about_window_set_version(cast(about), CommandLineOption.version)
        if let developer = metainfo?.developer {
            adw_about_window_set_developer_name(cast(about), developer)
            // Credits › Developers: the metainfo's developer, linked to the project's site.
            let credit = [developer, metainfo?.homepage].compactMap { $0 }.joined(separator: " ")
            withCStringArray([credit]) { adw_about_window_set_developers(cast(about), $0) }
        }
        if let homepage = metainfo?.homepage { adw_about_window_set_website(cast(about), homepage) }
        // Legal: the full-article extraction runs Readability.js (data/ui/readability/LICENSE.md).
        adw_about_window_add_legal_section(cast(about), "Readability.js", "Copyright © 2010 Arc90 Inc, Mozilla", GTK_LICENSE_APACHE_2_0, nil)
        if let tracker = metainfo?.issueTracker { adw_about_window_set_issue_url(cast(about), tracker) }
        if let credits = translatorCredits { adw_about_window_set_translator_credits(cast(about), credits) }
        if let release = metainfo?.release, !release.notes.isEmpty {
            adw_about_window_set_release_notes_version(cast(about), release.version)
            adw_about_window_set_release_notes(cast(about), release.notes)
        }
        // libadwaita's own texts (What's New, Credits, Legal...) in the app's language too.
        AdwaitaTexts.translateAbout(about)
        return about
    }

    /// The current language's translators, as its catalog names them; nil in English or while
    /// a catalog has no credits, so no empty Translated by section shows.
    static var translatorCredits: String? {
        // TRANSLATORS: your names, one per line, optionally with an e-mail or web address; they
        // show in the About window's credits. With no one to name, your team in your language
        // ("Équipe de traduction française"), never English.
        let credits = tr("translator-credits")
        return credits == "translator-credits" ? nil : credits
    }
}
