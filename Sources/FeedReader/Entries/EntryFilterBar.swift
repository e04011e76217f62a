import CGtk
import RefreshGtk

/// Above the list: All / Unread / Starred toggles and a search bar (Ctrl+1/2/3, Ctrl+F).
@MainActor
final class EntryFilterBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    let searchBar: UnsafeMutablePointer<GtkWidget>
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    private let searchButton: UnsafeMutablePointer<GtkWidget>
    private let toggles: [(EntryFilter, UnsafeMutablePointer<GtkWidget>)]

    /// Called when another filter is chosen.
    var onFilter: ((EntryFilter) -> Void)?
    /// Called as the search text changes; empty when the search ends.
    var onSearch: ((String) -> Void)?

    init() {
        let group = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
        gtk_widget_add_css_class(group, "linked")
        toggles = EntryFilter.allCases.map { ($0, gtk_toggle_button_new()!) }
        for (_, toggle) in toggles {
            if toggle != toggles[0].1 { gtk_toggle_button_set_group(cast(toggle), cast(toggles[0].1)) }
            gtk_box_append(cast(group), toggle)
        }
        gtk_toggle_button_set_active(cast(toggles[0].1), 1)
        searchButton = gtk_toggle_button_new()!
        gtk_button_set_icon_name(cast(searchButton), "system-search-symbolic")
        let spacer = Widgets.box(GTK_ORIENTATION_HORIZONTAL)
        gtk_widget_set_hexpand(spacer, 1)
        let row = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [group, spacer, searchButton])
        Widgets.setMargins(row, horizontal: 8, vertical: 6)

        searchEntry = gtk_search_entry_new()!
        // Results as each key is typed: GTK's default wait of 150 ms would be latency people see,
        // and the query of a key typed before the last result came is stopped (EntryListView).
        gtk_search_entry_set_search_delay(cast(searchEntry), 0)
        gtk_widget_set_hexpand(searchEntry, 1)
        searchBar = gtk_search_bar_new()!
        gtk_search_bar_set_child(cast(searchBar), searchEntry)
        gtk_search_bar_connect_entry(cast(searchBar), cast(searchEntry))
        // No close button of its own (GTK 4.8 leaves it unnamed for screen readers): the search
        // toggle above and Escape close the bar.
        g_object_bind_property(cast(searchButton), "active", cast(searchBar), "search-mode-enabled",
                               GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))
        widget = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [row, searchBar])
        for (filter, toggle) in toggles {
            Signal.connect(cast(toggle), "toggled") { [weak self] in
                if gtk_toggle_button_get_active(cast(toggle)) != 0 { self?.onFilter?(filter) }
            }
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
        retranslate()
    }

    /// Chooses `filter`, as a click on its toggle would.
    func select(_ filter: EntryFilter) {
        guard let toggle = toggles.first(where: { $0.0 == filter })?.1 else { return }
        gtk_toggle_button_set_active(cast(toggle), 1)
    }

    /// Opens the search bar with the keyboard in its entry.
    func startSearch() {
        gtk_search_bar_set_search_mode(cast(searchBar), 1)
        gtk_widget_grab_focus(searchEntry)
    }

    /// Sets the toggles' texts in the current language.
    func retranslate() {
        for (filter, toggle) in toggles {
            let text = switch filter {
            case .all: tr("All")
            case .unread: tr("Unread")
            case .starred: tr("Starred")
            }
            gtk_button_set_label(cast(toggle), text)
        }
        Widgets.name(searchButton, tr("Search"))
        // GTK 4.8 has the property but not yet its setter.
        var placeholder = GValue()
        g_value_init(&placeholder, g_type_from_name("gchararray"))
        g_value_set_string(&placeholder, tr("Search all entries"))
        g_object_set_property(cast(searchEntry), "placeholder-text", &placeholder)
        g_value_unset(&placeholder)
        cgtk_accessible_set_label(cast(searchEntry), tr("Search all entries"))
    }
}
