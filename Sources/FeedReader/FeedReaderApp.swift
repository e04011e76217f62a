import AppSupport
import CAdw
import CGtk
import FeedCore
import Foundation
import ReaderCommands
import RefreshGtk

/// The AdwApplication: one main window over the user's feed library.
@MainActor
final class FeedReaderApp {
    static let applicationID = "io.github.refreshgtk.FeedReader"

    let application: UnsafeMutablePointer<GtkApplication>
    private(set) var window: MainWindow?
    /// What waits for the window while the store opens: a search result or search to show.
    var windowRequests: [(MainWindow) -> Void] = []
    /// Set while the window's store opens, so that a second activation opens no second window.
    private var isOpeningWindow = false
    /// GNOME Shell's search, answered while the application runs (FeedReaderApp+ShellSearch).
    var shellSearch: ShellSearchProvider?
    private var options: CommandLineOptions?
    /// The check of the database's top pages, started before GTK so that it runs while GTK
    /// starts; the rest of the file is checked once the window shows (WindowStart).
    private var databaseCheck: DatabaseFileCheck.Started?

    init() {
        // Before GTK starts: AdwApplication loads the style sheet from the bundle at startup.
        AppResources.register()
        // AdwApplication initialises libadwaita at startup.
        application = UnsafeMutableRawPointer(adw_application_new(Self.applicationID, G_APPLICATION_DEFAULT_FLAGS)!)
            .assumingMemoryBound(to: GtkApplication.self)
        AppResources.attach(to: application)
        g_set_application_name(tr("Feed Reader"))
        options = CommandLineOptions(CommandLineOption.all { await ExtractCommand.run($0) }, application: cast(application)) { [unowned self] in
            self.startShellSearch()
            // Started by D-Bus to answer GNOME Shell's search, it may never open the window.
            guard g_application_get_flags(cast(self.application)).rawValue & G_APPLICATION_IS_SERVICE.rawValue == 0 else { return }
            self.databaseCheck = DatabaseFileCheck.Started(path: FeedStore.databaseURL().path)
        }
        Signal.connect(application, "activate") { [unowned self] in self.activate() }
        Signal.connect(application, "shutdown") { [unowned self] in self.shellSearch?.unexport() }
        // Ctrl+Q (Shortcuts) quits the application, whatever window is up.
        let quit = g_simple_action_new("quit", nil)!
        Signal.connectIgnoringArgument(cast(quit), "activate") { [application] in g_application_quit(cast(application)) }
        g_action_map_add_action(cast(application), cast(quit))
        g_object_unref(cast(quit))
    }

    /// Runs the command line's command, or the main loop until the last window closes; returns
    /// the exit status.
    func run() -> Int32 {
        let status = g_application_run(cast(application), CommandLine.argc, CommandLine.unsafeArgv)
        SettingsStore.standard.flush()
        // The store's log emptied into the database, so that the next start reads none of it.
        try? window?.library.store.close()
        g_object_unref(cast(application))
        return status
    }

    private func activate() {
        if let window {
            gtk_window_present(cast(window.window))
            runWindowRequests(on: window)
            return
        }
        guard !isOpeningWindow else { return }
        AppData.addBuildTreeIcons()
        LanguageChoice.applySaved(from: .standard)
        if let failure = AppResources.failure {
            showStartupError(AppResources.missingMessage, details: failure)
            return
        }
        // Kept running while the store opens off the main thread; the window comes when it is ready.
        g_application_hold(cast(application))
        isOpeningWindow = true
        Task { @MainActor [application] in
            defer {
                self.isOpeningWindow = false
                g_application_release(cast(application))
            }
            do {
                let (store, notice) = try await FeedStore.openHealing(at: FeedStore.databaseURL(), started: self.databaseCheck)
                self.databaseCheck = nil
                // Entries in the search backlog (a repaired store's, an upgraded index's, a sync's
                // cut short) are indexed now, not at the first search.
                Task.detached(priority: .utility) { try? await store.indexSearchBacklog() }
                let window = MainWindow(application: application, library: FeedLibrary(store: store), settings: .standard,
                                        storageNotice: notice)
                self.window = window
                window.present()
                self.runWindowRequests(on: window)
            } catch {
                self.showDatabaseError(error)
            }
        }
    }

    /// Not even a store in memory could be made: say so rather than crash or start empty.
    private func showDatabaseError(_ error: Error) {
        let path = FeedStore.databaseURL().path
        // TRANSLATORS: %@ is the database file's path.
        let text = tr("The feed database at %@ could not be opened.").filling(path)
        showStartupError(text, details: ErrorReason(error).technicalSummary)
    }

    /// A window that says why the reader cannot start, with the details for a developer.
    private func showStartupError(_ text: String, details: String) {
        // Said on the terminal too, where a packager's or a session's log sees it.
        CommandOutput.say(text + " (" + details + ")", to: .standardError)
        let window = gtk_application_window_new(application)!
        gtk_window_set_title(cast(window), tr("Feed Reader"))
        let heading = Widgets.label(text, classes: ["title-3"], xalign: 0.5)
        gtk_label_set_wrap(cast(heading), 1)
        let (details, detailsLabel) = Widgets.detailsExpander()
        gtk_label_set_text(cast(detailsLabel), details)
        let box = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [heading, details])
        Widgets.setMargins(box, horizontal: 32, vertical: 32)
        gtk_window_set_child(cast(window), box)
        gtk_window_present(cast(window))
    }
}
