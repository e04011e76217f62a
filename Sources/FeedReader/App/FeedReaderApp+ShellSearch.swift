import CGtk
import FeedCore
import Foundation
import RefreshGtk

extension FeedReaderApp {
    /// How long a process D-Bus started for the Shell's search stays after its last answer:
    /// the Shell asks again at each key typed.
    static let searchServiceLinger: guint = 10_000

    /// Answers GNOME Shell's search on the session bus connection the application registers on,
    /// below its object path, from the store the window opens and the icons it caches; a result
    /// or "show more" opens the window on it. Called before the application registers: the bus
    /// hands a D-Bus activated service the Shell's first question as soon as it owns its name,
    /// before its startup (GTK's set-up) has run.
    func startShellSearch() {
        var error: UnsafeMutablePointer<GError>?
        // The process's shared connection, the one GApplication registers on.
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        let path = "/" + Self.applicationID.replacingOccurrences(of: ".", with: "/")
        if g_application_get_flags(cast(application)).rawValue & G_APPLICATION_IS_SERVICE.rawValue != 0 {
            g_application_set_inactivity_timeout(cast(application), Self.searchServiceLinger)
        }
        let provider = ShellSearchProvider(search: ShellSearch(databasePath: FeedStore.databaseURL().path),
                                           iconDirectory: FeedIcons.cacheDirectory())
        provider.onBusy = { [application] busy in
            if busy { g_application_hold(cast(application)) } else { g_application_release(cast(application)) }
        }
        provider.onActivate = { [unowned self] entryID, text, time in
            self.withWindow(presentedAt: time) { $0.reading.showSearchResult(entryID: entryID, text: text) }
        }
        provider.onLaunch = { [unowned self] text, time in
            self.withWindow(presentedAt: time) { $0.reading.showSearch(text) }
        }
        provider.export(on: connection, at: path + ShellSearchProvider.objectPathSuffix)
        shellSearch = provider
    }

    /// Runs `request` on the window, brought to the front with the time of the click that asked
    /// for it, once it is open (opening it when it is not).
    private func withWindow(presentedAt time: guint32, _ request: @escaping (MainWindow) -> Void) {
        windowRequests.append { window in
            gtk_window_present_with_time(cast(window.window), time)
            request(window)
        }
        g_application_activate(cast(application))
    }

    /// Runs what waited for the window.
    func runWindowRequests(on window: MainWindow) {
        let requests = windowRequests
        windowRequests = []
        requests.forEach { $0(window) }
    }
}
