import CAdw
import CGtk
import RefreshGtk

/// The window's own buttons, Refresh and the main menu, in the header bars of the panes shown:
/// both in the sidebar's while it shows, or in the one pane's shown alone; in the two-pane
/// step Refresh in the list's and the main menu at the article's end, so the list's title keeps
/// the room it needs. The list shown alone (a phone's width) has a bar at its foot for Refresh,
/// Search and Unread: beside them, Back, the main menu and a desktop's three window buttons its
/// title had 34 px left. One click away at every width, never behind Back; being one
/// button each, Refresh shows every refresh's spinner and F10 opens the one main menu.
@MainActor
final class WindowButtons {
    /// A header bar's two places: Refresh at its start, the main menu at its end.
    struct Slots {
        let refresh: UnsafeMutablePointer<GtkWidget>
        let menu: UnsafeMutablePointer<GtkWidget>
    }

    /// The list's bar at its foot, shown while the list shows alone: its place for Refresh, and
    /// the list's own buttons (Search, Unread) with their places in its header and in the bar.
    struct ListBar {
        let bar: UnsafeMutablePointer<GtkWidget>
        let refresh: UnsafeMutablePointer<GtkWidget>
        let slots: [(button: UnsafeMutablePointer<GtkWidget>, header: UnsafeMutablePointer<GtkWidget>, bar: UnsafeMutablePointer<GtkWidget>)]
    }

    /// Where Refresh is: a pane's header bar, or the list's bar.
    enum Place: Equatable {
        case header(PaneLeaflet.Pane)
        case listBar
    }

    private let refresh: UnsafeMutablePointer<GtkWidget>
    private let menu: UnsafeMutablePointer<GtkWidget>
    private let slots: [PaneLeaflet.Pane: Slots]
    private let listBar: ListBar
    /// Where Refresh is now.
    private var place = Place.header(.feeds)
    /// The pane whose header holds the main menu now.
    private var menuPane = PaneLeaflet.Pane.feeds
    /// Whether a move waits for the layout to end.
    private var isMoveQueued = false
    /// Whether the buttons still exist: the window may close between a resize and the move it queued.
    private let life: WidgetLife

    /// The buttons and their places in `layout`.
    init(layout: WindowLayout) {
        (refresh, menu) = (layout.refreshButton, layout.mainMenuButton)
        (slots, listBar) = (layout.windowButtonSlots, layout.listBar)
        life = WidgetLife(refresh)
    }

    /// Where Refresh and the main menu go, of the panes `shown`.
    static func places(among shown: [PaneLeaflet.Pane]) -> (refresh: Place, menu: PaneLeaflet.Pane) {
        let first = shown.first ?? .feeds
        return (shown == [.entries] ? Place.listBar : .header(first), shown == [.entries, .article] ? .article : first)
    }

    /// Puts the buttons in the places for `panes`, the panes shown. Not while GTK lays the
    /// window out (a leaflet folds as it is allocated): once it is done.
    func follow(_ panes: @escaping @MainActor () -> [PaneLeaflet.Pane]) {
        guard !isMoveQueued else { return }
        isMoveQueued = true
        MainThread.after(0) { [weak self] in
            guard let self, self.life.isAlive else { return }
            self.isMoveQueued = false
            let places = Self.places(among: panes())
            if places.refresh != self.place {
                let inBar = places.refresh == .listBar
                if inBar != (self.place == .listBar) {
                    for slot in self.listBar.slots {
                        self.move(slot.button, from: inBar ? slot.header : slot.bar, to: inBar ? slot.bar : slot.header)
                    }
                    gtk_action_bar_set_revealed(cast(self.listBar.bar), inBar.gboolean)
                }
                self.move(self.refresh, from: self.slot(of: self.place), to: self.slot(of: places.refresh))
                self.place = places.refresh
            }
            if places.menu != self.menuPane {
                self.move(self.menu, from: self.slots[self.menuPane]?.menu, to: self.slots[places.menu]?.menu)
                self.menuPane = places.menu
            }
        }
    }

    private func slot(of place: Place) -> UnsafeMutablePointer<GtkWidget>? {
        switch place {
        case let .header(pane): slots[pane]?.refresh
        case .listBar: listBar.refresh
        }
    }

    private func move(_ button: UnsafeMutablePointer<GtkWidget>, from old: UnsafeMutablePointer<GtkWidget>?,
                      to new: UnsafeMutablePointer<GtkWidget>?) {
        guard let old, let new else { return }
        // The old place lets go of the button only once the new one holds it.
        g_object_ref(cast(button))
        adw_bin_set_child(cast(old), nil)
        gtk_widget_set_visible(old, 0)
        adw_bin_set_child(cast(new), button)
        gtk_widget_set_visible(new, 1)
        g_object_unref(cast(button))
    }
}
