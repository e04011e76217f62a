import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The notice over a feed's entries while its last refresh failed: why, when it was last tried,
/// and the two ways out, Retry and Edit Address… (notices/feed-failure-bar.ui). It stays until a
/// refresh succeeds, unlike the toast that first says it, so a failure in the background is seen
/// where the feed is read.
@MainActor
final class FeedFailureNotice {
    /// The notice's actions, as its buttons name them (`feed-failure.retry`).
    enum Action: String, PartAction {
        case retry
        case editAddress = "edit-address"
    }

    /// The revealer the window holds.
    let widget: UnsafeMutablePointer<GtkWidget>
    private var actions: PartActions<Action>!
    /// The feed shown, while the notice is.
    private(set) var feed: StoredFeed?
    /// The revealer's content, built from its file when first shown and then only filled again:
    /// a button with the keyboard focus or under the pointer stays. Its texts follow a language switch.
    private lazy var content: BuilderFile = {
        let file = BuilderFile("notices/feed-failure-bar.ui", followingLanguage: true)
        gtk_revealer_set_child(cast(widget), file.widget("box"))
        return file
    }()

    init() {
        widget = gtk_revealer_new()!
        // Ours until the window takes it.
        g_object_ref_sink(cast(widget))
        actions = PartActions(on: widget, prefix: "feed-failure") { [weak self] action in
            guard let self, let id = self.feed?.id else { return }
            // The window's own actions, as its refresh button and the feed's menu start them.
            switch action {
            case .retry: _ = gtk_widget_activate_action_variant(self.widget, "win.refresh", nil)
            case .editAddress: _ = gtk_widget_activate_action_variant(self.widget, "win.edit-feed-address", g_variant_new_int64(gint64(id)))
            }
        }
    }

    isolated deinit {
        g_object_unref(cast(widget))
    }

    /// Shows why `feed`'s last refresh failed, or hides the notice when it did not (or for no feed).
    func show(_ feed: StoredFeed?, now: Date = Date()) {
        guard let feed, let error = feed.lastError else {
            self.feed = nil
            gtk_revealer_set_reveal_child(cast(widget), 0)
            return
        }
        self.feed = feed
        let file = content
        gtk_label_set_text(cast(file.widget("message")), tr("Last refresh failed: %@").filling(error.sentence))
        let when = file.widget("when")
        if let attempt = feed.lastAttempt {
            let tried = EntryDateText.text(for: attempt, now: now)
            if let next = feed.nextFetch, next > now {
                // The server's Retry-After: refreshes leave the feed alone until then.
                // TRANSLATORS: under why a feed's refresh failed, when its server asked to be left alone for a while; %1$@ is when it was last tried, %2$@ when it will be again, each a time today ("14:05") or a date ("Dec 5").
                gtk_label_set_text(cast(when), tr("Last tried %1$@; the server asked to wait until %2$@")
                    .filling(tried, EntryDateText.text(for: next, now: now)))
            } else {
                // TRANSLATORS: under why a feed's refresh failed; %@ is a time today ("14:05") or a date ("Dec 5").
                gtk_label_set_text(cast(when), tr("Last tried %@").filling(tried))
            }
        }
        gtk_widget_set_visible(when, (feed.lastAttempt != nil).gboolean)
        gtk_revealer_set_reveal_child(cast(widget), 1)
    }

    /// Shows the notice of the feed `selection` is, or hides it for any other selection.
    func show(_ selection: FeedSelection, in model: LibraryModel) {
        show(selection.feedID.flatMap(model.feed(id:)))
    }

    /// Says the notice again in the language chosen now, for the feed it shows.
    func showAgain() { show(feed) }

    /// What the notice says (why, then when), or nil when it is hidden.
    var message: String? {
        guard gtk_revealer_get_reveal_child(cast(widget)) != 0 else { return nil }
        let file = content
        return ["message", "when"].map { file.widget($0) }.filter { gtk_widget_get_visible($0) != 0 }
            .map { String(cString: gtk_label_get_text(cast($0))) }.joined(separator: "\n")
    }
}
