import CAdw
import CGtk
import Foundation
import RefreshGtk

/// The About window: the app's name, icon and version, its site and issue tracker, who made and
/// translated it, its license, and the newest release's notes from the metainfo it ships.
@MainActor
enum AboutWindow {
    /// Shows the window over `parent`; returns it.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>,
                        metainfo: Metainfo? = Metainfo.shipped) -> UnsafeMutablePointer<GtkWidget> {
        let about = adw_about_window_new()!
        gtk_window_set_transient_for(cast(about), cast(parent))
        gtk_window_set_modal(cast(about), 1)
        adw_about_window_set_application_name(cast(about), tr("Feed Reader"))
        adw_about_window_set_application_icon(cast(about), FeedReaderApp.applicationID)
        adw_about_window_set_version(cast(about), CommandLineOption.version)
        adw_about_window_set_comments(cast(about), tr("Read your feeds; pull down to refresh."))
        adw_about_window_set_license_type(cast(about), GTK_LICENSE_MIT_X11)
        adw_about_window_set_copyright(cast(about), "© 2026 RefreshGtk developers")
        withCStringArray(["The RefreshGtk authors https://github.com/refreshgtk"]) { adw_about_window_set_developers(cast(about), $0) }
        if let developer = metainfo?.developer { adw_about_window_set_developer_name(cast(about), developer) }
        if let homepage = metainfo?.homepage { adw_about_window_set_website(cast(about), homepage) }
        if let tracker = metainfo?.issueTracker { adw_about_window_set_issue_url(cast(about), tracker) }
        if let credits = translatorCredits { adw_about_window_set_translator_credits(cast(about), credits) }
        if let release = metainfo?.release, !release.notes.isEmpty {
            adw_about_window_set_release_notes_version(cast(about), release.version)
            adw_about_window_set_release_notes(cast(about), release.notes)
        }
        gtk_window_present(cast(about))
        return about
    }

    /// The current language's translators, as its catalog names them; nil in English or while
    /// a catalog has no credits, so no empty Translated by section shows.
    static var translatorCredits: String? {
        // TRANSLATORS: your names, one per line, optionally with an e-mail or web address; they
        // show in the About window's credits.
        let credits = tr("translator-credits")
        return credits == "translator-credits" ? nil : credits
    }
}
