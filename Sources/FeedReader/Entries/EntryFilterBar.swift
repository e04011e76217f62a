import CGtk
import RefreshGtk

/// The list's header controls: the Unread toggle (off: all entries; Ctrl+1/2) and the search
/// toggle with its search bar below the header (Ctrl+F), as views/window.ui lays and names them.
@MainActor
final class EntryFilterBar {
    let searchBar: UnsafeMutablePointer<GtkWidget>
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    let searchButton: UnsafeMutablePointer<GtkWidget>
    /// Keeps the search typed as a row of the sidebar (SavedSearches).
    let saveSearchButton: UnsafeMutablePointer<GtkWidget>
    let unreadButton: UnsafeMutablePointer<GtkWidget>

    /// Called when another filter is chosen.
    var onFilter: ((EntryFilter) -> Void)?
    /// Called as the search text changes; empty when the search ends.
    var onSearch: ((String) -> Void)?

    init(layout: WindowLayout) {
        searchBar = layout.searchBar
        searchEntry = layout.searchEntry
        searchButton = layout.searchButton
        saveSearchButton = layout.saveSearchButton
        unreadButton = layout.unreadButton
        // Results as each key is typed: GTK's default wait of 150 ms would be latency people see,
        // and the query of a key typed before the last result came is stopped (EntryListView).
        gtk_search_entry_set_search_delay(cast(searchEntry), 0)
        // No close button of its own (GTK 4.8 leaves it unnamed for screen readers): the search
        // toggle and Escape close the bar.
        gtk_search_bar_connect_entry(cast(searchBar), cast(searchEntry))
        Signal.connect(cast(unreadButton), "toggled") { [weak self] in
            guard let self else { return }
            self.onFilter?(self.filter)
        }
        Signal.connect(cast(searchEntry), "search-changed") { [weak self] in
            guard let self else { return }
            self.onSearch?(String(cString: gtk_editable_get_text(cast(self.searchEntry))))
        }
        Signal.connectIgnoringArgument(cast(searchBar), "notify::search-mode-enabled") { [weak self] in
            guard let self, gtk_search_bar_get_search_mode(cast(self.searchBar)) == 0 else { return }
            // Closing the bar ends the search, whatever was typed.
            gtk_editable_set_text(cast(self.searchEntry), "")
            self.onSearch?("")
        }
    }

    /// The filter chosen.
    var filter: EntryFilter {
        gtk_toggle_button_get_active(cast(unreadButton)) != 0 ? .unread : .all
    }

    /// Chooses `filter`, as a click on the toggle would.
    func select(_ filter: EntryFilter) {
        gtk_toggle_button_set_active(cast(unreadButton), (filter == .unread).gboolean)
    }

    /// Opens the search bar with the keyboard in its entry.
    func startSearch() {
        gtk_search_bar_set_search_mode(cast(searchBar), 1)
        gtk_widget_grab_focus(searchEntry)
    }

    /// Opens the search bar showing `text`, without telling `onSearch`: its caller lists it.
    func showSearch(_ text: String) {
        gtk_search_bar_set_search_mode(cast(searchBar), 1)
        gtk_editable_set_text(cast(searchEntry), text)
        gtk_editable_set_position(cast(searchEntry), -1)
    }
}
