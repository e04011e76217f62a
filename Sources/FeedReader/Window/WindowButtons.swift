import CAdw
import CGtk
import RefreshGtk

/// The window's own buttons, Refresh and the main menu, in the header bar of the first pane
/// shown: the sidebar's while it shows, the list's once the sidebar folds away, the article's
/// when it shows alone: one click away at every width, never behind Back. Being one button
/// each, Refresh shows every refresh's spinner and F10 opens the one main menu.
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
    /// The pane whose header holds the buttons now.
    private(set) var pane = PaneLeaflet.Pane.feeds
    /// Whether a move waits for the layout to end.
    private var isMoveQueued = false

    init(refresh: UnsafeMutablePointer<GtkWidget>, menu: UnsafeMutablePointer<GtkWidget>, slots: [PaneLeaflet.Pane: Slots]) {
        (self.refresh, self.menu, self.slots) = (refresh, menu, slots)
    }

    /// Puts the buttons in the header of the first of `panes`, the panes shown. Not while GTK
    /// lays the window out (a leaflet folds as it is allocated): once it is done.
    func follow(_ panes: @escaping @MainActor () -> [PaneLeaflet.Pane]) {
        guard !isMoveQueued else { return }
        isMoveQueued = true
        MainThread.after(0) { [weak self] in
            guard let self else { return }
            self.isMoveQueued = false
            self.move(to: panes().first ?? .feeds)
        }
    }

    private func move(to target: PaneLeaflet.Pane) {
        guard target != pane, let from = slots[pane], let to = slots[target] else { return }
        for (button, old, new) in [(refresh, from.refresh, to.refresh), (menu, from.menu, to.menu)] {
            // The old place lets go of the button only once the new one holds it.
            g_object_ref(cast(button))
            adw_bin_set_child(cast(old), nil)
            gtk_widget_set_visible(old, 0)
            adw_bin_set_child(cast(new), button)
            gtk_widget_set_visible(new, 1)
            g_object_unref(cast(button))
        }
        pane = target
    }
}
