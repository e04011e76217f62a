import CGtk
import Foundation
import RefreshGtk

/// The smallest app with pull to refresh: a list whose header, once pulled, adds a row a second
/// later, as a fetch would. It depends on RefreshGtk and GTK only.
@MainActor
final class ExampleWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let list = TextList((1...30).map { "Row \($0)" })
    let header = NormalHeader()
    private var refreshes = 0

    init(application: UnsafeMutablePointer<GtkApplication>) {
        window = gtk_application_window_new(application)
        gtk_window_set_title(cast(window), "Pull to refresh")
        gtk_window_set_default_size(cast(window), 360, 480)
        let view = RefreshView(wrapping: cast(list.scrolledWindow))
        gtk_window_set_child(cast(window), view.widget)
        header.refreshingAction = { [weak self] in self?.refresh() }
        header.link(to: view)
    }

    /// Stands in for a fetch: a new row at the top a second later, then the header hides.
    private func refresh() {
        MainThread.after(1) { [weak self] in
            guard let self else { return }
            refreshes += 1
            list.insert(["New row \(refreshes)"], at: 0)
            // The list keeps the rows it showed in place; show the new one instead.
            gtk_widget_activate_action_variant(list.listView, "list.scroll-to-item", g_variant_new_uint32(0))
            header.endRefreshing()
        }
    }
}

@main
@MainActor
final class PullToRefreshExample {
    let application = gtk_application_new("io.github.refreshgtk.Example", G_APPLICATION_NON_UNIQUE)!
    var window: ExampleWindow?

    static func main() {
        MainQueueBridge.install()
        let example = PullToRefreshExample()
        Signal.connect(example.application, "activate") { [example] in
            if example.window == nil { example.window = ExampleWindow(application: example.application) }
            gtk_window_present(cast(example.window!.window))
        }
        exit(g_application_run(cast(example.application), CommandLine.argc, CommandLine.unsafeArgv))
    }
}
