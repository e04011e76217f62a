import CGtk
import FeedCore
import RefreshGtk

/// Renaming a feed and changing its address, from the feed's menu in the sidebar.
@MainActor
enum FeedEditing {
    /// Adds `win.rename-feed` and `win.edit-feed-address` (each taking the feed's id) to
    /// `window`, whose widgets `life` follows. `changed` runs once a feed changed; `failed` says
    /// what went wrong.
    static func addActions(to window: UnsafeMutablePointer<GtkWidget>, life: WidgetLife, library: FeedLibrary,
                           changed: @escaping @MainActor (Int64) -> Void,
                           failed: @escaping @MainActor (String, any Error) -> Void) {
        Widgets.addAction(to: window, "rename-feed", withInt64: true) { feedID in
            Task { @MainActor in
                // The window may have closed while the feed was read.
                guard let feed = try? await library.store.feed(id: feedID), life.isAlive else { return }
                NameDialog.present(.renameFeed, over: window, text: feed.displayTitle) { name in
                    Task { @MainActor in
                        do {
                            try await library.store.renameFeed(feedID, to: name)
                        } catch {
                            failed(tr("The feed could not be renamed."), error)
                        }
                        changed(feedID)
                    }
                }
            }
        }
        Widgets.addAction(to: window, "edit-feed-address", withInt64: true) { feedID in
            Task { @MainActor in
                // The window may have closed while the feed was read.
                guard let feed = try? await library.store.feed(id: feedID), life.isAlive else { return }
                NameDialog.present(.editAddress, over: window, text: feed.url.absoluteString,
                                   isValid: { FeedLibrary.feedURL(from: $0) != nil }) { address in
                    guard let url = FeedLibrary.feedURL(from: address), url != feed.url else { return }
                    Task { @MainActor in
                        do {
                            try await library.store.changeAddress(ofFeed: feedID, to: url)
                            _ = await library.refresh(feedIDs: [feedID])
                        } catch FeedStoreError.alreadySubscribed {
                            failed(tr("You are already subscribed to the feed at this address."), FeedStoreError.alreadySubscribed(url))
                        } catch {
                            failed(tr("The feed’s address could not be changed."), error)
                        }
                        changed(feedID)
                    }
                }
            }
        }
    }
}
