import CGtk
import RefreshGtk

/// The reader's preferences, saved in its settings file as they change.
@MainActor
final class Preferences {
    private let settings: SettingsStore
    private enum Key {
        static let group = "Reading"
        static let markReadOnShow = "mark-read-on-show"
    }

    init(settings: SettingsStore) {
        self.settings = settings
    }

    /// Whether showing an entry marks it read (on unless turned off).
    var marksReadWhenShown: Bool {
        get { settings.integer(forKey: Key.markReadOnShow, in: Key.group) != 0 }
        set { settings.setInteger(newValue ? 1 : 0, forKey: Key.markReadOnShow, in: Key.group) }
    }

    /// Opens the preferences window over `parent`; returns it.
    @discardableResult
    func present(over parent: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new()!
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_set_destroy_with_parent(cast(window), 1)
        gtk_window_set_title(cast(window), tr("Preferences"))
        gtk_window_set_default_size(cast(window), 420, -1)
        let title = Widgets.label(tr("Mark entries read when shown"))
        gtk_widget_set_hexpand(title, 1)
        let toggle = gtk_switch_new()!
        gtk_switch_set_active(cast(toggle), marksReadWhenShown.gboolean)
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        cgtk_accessible_set_label(cast(toggle), tr("Mark entries read when shown"))
        Signal.connectIgnoringArgument(cast(toggle), "notify::active") { [weak self] in
            self?.marksReadWhenShown = gtk_switch_get_active(cast(toggle)) != 0
        }
        let row = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [title, toggle])
        Widgets.setMargins(row, horizontal: 24, vertical: 24)
        gtk_window_set_child(cast(window), row)
        let close = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(cast(close), gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                           gtk_named_action_new("window.close")))
        gtk_widget_add_controller(window, cast(close))
        gtk_window_present(cast(window))
        return window
    }
}
