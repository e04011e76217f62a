import CGtk
import RefreshGtk

extension EntryFilterBar {
    /// With no feeds there is nothing to filter or search: the Unread and Search toggles and
    /// their keys (Ctrl+2, Ctrl+F) are greyed out, not hidden, so they can still be found, and a
    /// search or filter left on ends.
    func setAvailable(_ available: Bool, in window: UnsafeMutablePointer<GtkWidget>) {
        if !available {
            if gtk_search_bar_get_search_mode(cast(searchBar)) != 0 { gtk_search_bar_set_search_mode(cast(searchBar), 0) }
            if filter == .unread { select(.all) }
        }
        gtk_widget_set_sensitive(unreadButton, available.gboolean)
        gtk_widget_set_sensitive(searchButton, available.gboolean)
        for name in ["show-unread", "search"] {
            guard let action = g_action_map_lookup_action(cast(window), name) else { continue }
            g_simple_action_set_enabled(cast(action), available.gboolean)
        }
    }
}
