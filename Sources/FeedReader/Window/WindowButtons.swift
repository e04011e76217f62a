import CAdw
import CGtk
import RefreshGtk

/// The window's own buttons, Refresh and the main menu, in the header bars of the panes shown:
/// both in the sidebar's while it shows, or in the one pane's shown alone; in the two-pane
/// step Refresh in the list's and the main menu at the article's end, so the list's title keeps
/// the room it needs. One click away at every width, never behind Back; being one button each,
/// Refresh shows every refresh's spinner and F10 opens the one main menu.
@MainActor
final class WindowButtons {
    /// A header bar's two places: Refresh at its start, the main menu at its end.
    struct Slots {
        let refresh: UnsafeMutablePointer<GtkWidget>
        let menu: UnsafeMutablePointer<GtkWidget>
    }

    private let refresh: UnsafeMutablePointer<GtkWidget>
    private let menu: UnsafeMutablePointer<GtkWidget>
    private let slots: [PaneLeaflet.Pane: Slots]
    /// The pane whose header holds Refresh now.
    private(set) var pane = PaneLeaflet.Pane.feeds
    /// The pane whose header holds the main menu now.
    private(set) var menuPane = PaneLeaflet.Pane.feeds
    /// Whether a move waits for the layout to end.
    private var isMoveQueued = false
    /// Whether the buttons still exist: the window may close between a resize and the move it queued.
    private let life: WidgetLife

    init(refresh: UnsafeMutablePointer<GtkWidget>, menu: UnsafeMutablePointer<GtkWidget>, slots: [PaneLeaflet.Pane: Slots]) {
        (self.refresh, self.menu, self.slots) = (refresh, menu, slots)
        life = WidgetLife(refresh)
    }

    /// The panes whose headers hold Refresh and the main menu, of the panes `shown`.
    static func places(among shown: [PaneLeaflet.Pane]) -> (refresh: PaneLeaflet.Pane, menu: PaneLeaflet.Pane) {
        let first = shown.first ?? .feeds
        return (first, shown == [.entries, .article] ? .article : first)
    }

    /// Puts the buttons in the headers of `panes`, the panes shown. Not while GTK lays the
    /// window out (a leaflet folds as it is allocated): once it is done.
    func follow(_ panes: @escaping @MainActor () -> [PaneLeaflet.Pane]) {
        guard !isMoveQueued else { return }
        isMoveQueued = true
        MainThread.after(0) { [weak self] in
            guard let self, self.life.isAlive else { return }
            self.isMoveQueued = false
            let places = Self.places(among: panes())
            self.move(self.refresh, from: \.refresh, of: self.pane, to: places.refresh)
            self.pane = places.refresh
            self.move(self.menu, from: \.menu, of: self.menuPane, to: places.menu)
            self.menuPane = places.menu
        }
    }

    private func move(_ button: UnsafeMutablePointer<GtkWidget>, from slot: KeyPath<Slots, UnsafeMutablePointer<GtkWidget>>,
                      of current: PaneLeaflet.Pane, to target: PaneLeaflet.Pane) {
        guard target != current, let old = slots[current]?[keyPath: slot], let new = slots[target]?[keyPath: slot] else { return }
        // The old place lets go of the button only once the new one holds it.
        g_object_ref(cast(button))
        adw_bin_set_child(cast(old), nil)
        gtk_widget_set_visible(old, 0)
        adw_bin_set_child(cast(new), button)
        gtk_widget_set_visible(new, 1)
        g_object_unref(cast(button))
    }
}
