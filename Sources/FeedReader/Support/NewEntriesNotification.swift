import CGtk
import Foundation
import RefreshGtk

/// The one desktop notification a background refresh raises when it brought new entries.
enum NewEntriesNotification {
    /// The notification's id: a newer one replaces the last rather than piling up.
    static let id = "new-entries"
    /// The application action a click on the notification runs.
    static let action = "show-new-entries"

    /// "12 new entries in 4 feeds", in the user's language.
    static func text(entries: Int, feeds: Int) -> String {
        // TRANSLATORS: %d is a number of feeds; the result fills %@ in "%d new entries in %@".
        let feedCount = trn("%d feed", "%d feeds", feeds).filling(count: feeds)
        // TRANSLATORS: %d is the number of new entries; %@ is the feed count, such as "4 feeds".
        return trn("%d new entry in %@", "%d new entries in %@", entries)
            .filling(count: entries)
            .filling(phrase: feedCount)
    }

    /// Whether a refresh that brought new entries should say so, given the preferences and the window's focus.
    static func isWanted(newEntries: Int, enabled: Bool, whenFocused: Bool, windowIsFocused: Bool) -> Bool {
        newEntries > 0 && enabled && (whenFocused || !windowIsFocused)
    }

    /// Sends the notification through GApplication, which picks the desktop's notification service.
    @MainActor
    static func send(entries: Int, feeds: Int, from application: UnsafeMutablePointer<GtkApplication>) {
        let notification = g_notification_new(tr("Feed Reader"))!
        g_notification_set_body(notification, text(entries: entries, feeds: feeds))
        g_notification_set_default_action(notification, "app." + action)
        let icon = g_themed_icon_new(FeedReaderApp.applicationID)
        g_notification_set_icon(notification, icon)
        g_object_unref(cast(icon))
        g_application_send_notification(cast(application), id, notification)
        g_object_unref(cast(notification))
    }
}
