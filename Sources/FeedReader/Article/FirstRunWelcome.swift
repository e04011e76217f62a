import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// What the article pane shows, while no entry is, in the first window the app opens: a
/// welcome beside the bundled samples, offering to add a feed, import subscriptions or add a
/// sync account (views/welcome.ui), so that a newcomer sees how to read their own feeds.
@MainActor
final class FirstRunWelcome {
    static let file = "views/welcome.ui"

    /// What the sidebar holds, which the welcome's description speaks of.
    enum Feeds: Equatable {
        /// Nothing subscribed: the samples were removed, or not subscribed yet.
        case none
        /// Only bundled samples.
        case samples
        /// Feeds of the person's own, samples or not beside them.
        case own
    }

    /// Holds the status page; its child is built again on a language switch. Ours as long as
    /// the welcome lives, whether the pane still shows it or not.
    let widget: UnsafeMutablePointer<GtkWidget>
    private(set) var page: OpaquePointer
    /// What the description speaks of now.
    private(set) var feeds = Feeds.none

    init() {
        widget = adw_bin_new()!
        g_object_ref_sink(cast(widget))
        page = Self.build(into: widget)
        describe()
    }

    isolated deinit {
        g_object_unref(cast(widget))
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
        describe()
    }

    /// Says what is true of `subscribed`: the samples to try, the person's own feeds, or none.
    func follow(_ subscribed: [StoredFeed], samples: URL = AppData.sampleFeeds) {
        let kind = Self.kind(of: subscribed, samples: samples)
        guard kind != feeds else { return }
        feeds = kind
        describe()
    }

    /// What `subscribed` holds: a sample is a file in the folder of the bundled samples' name.
    static func kind(of subscribed: [StoredFeed], samples: URL) -> Feeds {
        guard !subscribed.isEmpty else { return .none }
        let isSample = { (feed: StoredFeed) in
            feed.url.isFileURL && feed.url.deletingLastPathComponent().lastPathComponent == samples.lastPathComponent
        }
        return subscribed.allSatisfy(isSample) ? .samples : .own
    }

    private func describe() {
        let description = switch feeds {
        case .none: tr("Add the feeds you read, bring your subscriptions from another reader, or sync with your server.")
        case .samples: tr("Sample feeds are here to try. Add the feeds you read, bring your subscriptions from another reader, or sync with your server.")
        case .own: tr("Select an entry to read it. Add more feeds, bring your subscriptions from another reader, or sync with your server.")
        }
        adw_status_page_set_description(page, description)
    }

    /// The page's title, as shown.
    var title: String {
        adw_status_page_get_title(page).map { String(cString: $0) } ?? ""
    }

    /// The page's description, as shown.
    var description: String {
        adw_status_page_get_description(page).map { String(cString: $0) } ?? ""
    }
}
