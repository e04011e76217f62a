import CGtk
import Foundation
import RefreshCore
import RefreshGtk

/// The main window: a long list with a pull-to-refresh header.
@MainActor
final class MainWindow {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let rows: OpaquePointer
    private let header: NormalHeader
    private var refreshCount = 0

    /// How long the simulated work of a refresh takes.
    static let simulatedRefreshDelay = 1.5

    init(application: UnsafeMutablePointer<GtkApplication>) {
        window = gtk_application_window_new(application)
        gtk_window_set_title(cast(window), "Feed Reader")
        gtk_window_set_default_size(cast(window), 480, 640)

        rows = gtk_string_list_new(nil)
        for index in (1...1000).reversed() {
            gtk_string_list_append(rows, "Entry \(index)")
        }
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scrolled), Self.makeListView(model: rows))
        gtk_widget_set_vexpand(scrolled, 1)

        header = NormalHeader()
        header.lastUpdatedKey = "MainWindow"
        let refreshView = RefreshView(wrapping: cast(scrolled))
        header.link(to: refreshView)
        gtk_window_set_child(cast(window), refreshView.widget)

        header.refreshingAction = { [unowned self] in self.simulateRefresh() }
        gtk_window_set_titlebar(cast(window), makeHeaderBar())
        addRefreshAction()
    }

    func present() { gtk_window_present(cast(window)) }

    private func simulateRefresh() {
        MainThread.after(Self.simulatedRefreshDelay) { [weak self] in
            guard let self else { return }
            refreshCount += 1
            let additions = (1...3).map { "New entry \(refreshCount).\($0)" }
            withCStringArray(additions) { gtk_string_list_splice(rows, 0, 0, $0) }
            header.endRefreshing()
        }
    }

    private func makeHeaderBar() -> UnsafeMutablePointer<GtkWidget> {
        let bar = gtk_header_bar_new()!
        let button = gtk_button_new_from_icon_name("view-refresh-symbolic")!
        gtk_widget_set_tooltip_text(button, "Refresh")
        gtk_actionable_set_action_name(cast(button), "win.refresh")
        gtk_header_bar_pack_start(cast(bar), button)
        return bar
    }

    private func addRefreshAction() {
        let action = g_simple_action_new("refresh", nil)!
        Signal.connectIgnoringArgument(cast(action), "activate") { [weak self] in self?.header.beginRefreshing() }
        g_action_map_add_action(cast(window), cast(action))
        g_object_unref(cast(action))
    }

    private static func makeListView(model: OpaquePointer) -> UnsafeMutablePointer<GtkWidget> {
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectObject(cast(factory), "setup") { item in
            let label = gtk_label_new(nil)!
            gtk_label_set_xalign(cast(label), 0)
            gtk_widget_set_margin_start(label, 12)
            gtk_widget_set_margin_end(label, 12)
            gtk_widget_set_margin_top(label, 10)
            gtk_widget_set_margin_bottom(label, 10)
            gtk_list_item_set_child(cast(item), label)
        }
        Signal.connectObject(cast(factory), "bind") { item in
            guard let object = gtk_list_item_get_item(cast(item)), let label = gtk_list_item_get_child(cast(item)) else { return }
            gtk_label_set_text(cast(label), gtk_string_object_get_string(cast(object)))
        }
        let selection = gtk_single_selection_new(cast(g_object_ref(cast(model))))
        return gtk_list_view_new(cast(selection), factory)
    }
}
