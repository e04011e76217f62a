import CGtk
import Foundation
import RefreshGtk

/// The GtkApplication: one main window, activated once.
@MainActor
final class FeedReaderApp {
    static let applicationID = "io.github.refreshgtk.FeedReader"

    private let application: UnsafeMutablePointer<GtkApplication>
    private var window: MainWindow?

    init() {
        application = gtk_application_new(Self.applicationID, G_APPLICATION_DEFAULT_FLAGS)
        g_set_application_name("Feed Reader")
        Signal.connect(application, "activate") { [unowned self] in self.activate() }
        setAccelerators("win.refresh", ["F5", "<Control>r"])
    }

    /// Runs the main loop until the last window closes; returns the exit status.
    func run() -> Int32 {
        // Only the program name: GApplication takes further arguments as files to open.
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments[0]), nil]
        defer { free(argv[0]) }
        let status = g_application_run(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self), 1, &argv)
        g_object_unref(application)
        return status
    }

    private func activate() {
        if window == nil { window = MainWindow(application: application) }
        window?.present()
    }

    private func setAccelerators(_ action: String, _ accelerators: [String]) {
        withCStringArray(accelerators) { gtk_application_set_accels_for_action(application, action, $0) }
    }
}
