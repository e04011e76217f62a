import CGtk
import Foundation
import RefreshGtk

/// `refresh-gallery [PAGE]`: every component variant on its own page, as in MJRefresh's
/// example app. PAGE (such as `back-footer` or `trailer`) picks the page shown first.
@main
enum GalleryMain {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        if let first = arguments.first, GalleryVariant(rawValue: first) == nil {
            let names = GalleryVariant.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("usage: refresh-gallery [PAGE]\npages: \(names)\n".utf8))
            exit(2)
        }
        let initial = arguments.first.flatMap(GalleryVariant.init(rawValue:)) ?? .normalHeader
        MainQueueBridge.install()
        let app = gtk_application_new("io.github.refreshgtk.Gallery", G_APPLICATION_NON_UNIQUE)!
        nonisolated(unsafe) var window: GalleryWindow?
        Signal.connect(cast(app), "activate") {
            if window == nil { window = GalleryWindow(application: cast(app), initial: initial) }
            gtk_window_present(cast(window!.window))
        }
        // Only the program name: GApplication would take further arguments as files to open.
        let status = g_application_run(cast(app), 1, CommandLine.unsafeArgv)
        g_object_unref(cast(app))
        exit(status)
    }
}
