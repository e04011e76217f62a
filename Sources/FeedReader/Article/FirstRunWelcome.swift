import CAdw
import CGtk
import RefreshGtk

/// What the article pane shows, while no entry is, in the first window the app opens: a
/// welcome beside the bundled samples, offering to add a feed, import subscriptions or add a
/// sync account (views/welcome.ui), so that a newcomer sees how to read their own feeds.
@MainActor
final class FirstRunWelcome {
    static let file = "views/welcome.ui"

    /// Holds the status page; its child is built again on a language switch.
    let widget: UnsafeMutablePointer<GtkWidget>
    private(set) var page: OpaquePointer

    init() {
        widget = adw_bin_new()!
        page = Self.build(into: widget)
    }

    private static func build(into bin: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer {
        let file = BuilderFile(file)
        // The builder holds the page until the bin does.
        return withExtendedLifetime(file) {
            let page = file.opaque("page")
            adw_bin_set_child(cast(bin), UnsafeMutablePointer(page))
            // Its scrolled window is what a screen reader enters: it goes by the page's title.
            Widgets.nameScrolling(statusPage: page, adw_status_page_get_title(page).map { String(cString: $0) } ?? "")
            return page
        }
    }

    /// Builds the page again from its file, in the language now chosen.
    func rebuild() {
        page = Self.build(into: widget)
    }

    /// The page's title, as shown.
    var title: String {
        adw_status_page_get_title(page).map { String(cString: $0) } ?? ""
    }
}
