import AppSignals
import CGtk
import FeedCore
import RefreshGtk

/// A feed's "Always Show Full Article", a check item in its context menu: a window action with
/// a boolean state, set to the feed's choice each time a feed's menu is made.
@MainActor
enum FullArticleSetting {
    static let actionName = "always-show-full-article"
    /// The action's data naming the feed whose menu was made last, which the action acts on.
    private static let feedKey = "feed-id"

    /// Adds the action to `window`. Once a feed's choice is saved, `changed` gets the feed and
    /// the choice; `failed` runs when it could not be saved.
    static func addAction(to window: UnsafeMutablePointer<GtkWidget>, library: @escaping @MainActor () -> FeedLibrary?,
                          changed: @escaping @MainActor (Int64, Bool) -> Void, failed: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new_stateful(actionName, nil, g_variant_new_boolean(0))!
        Signal.connectObjectOrNil(cast(action), "change-state") { value in
            guard let value, let store = library()?.store,
                  let data = g_object_get_data(cast(action), feedKey) else { return }
            let feedID = Int64(Int(bitPattern: data))
            let always = g_variant_get_boolean(OpaquePointer(value)) != 0
            // The window, which holds the action, may close while the choice is saved.
            let held = ObjectRef(retaining: action)
            Task { @MainActor in
                do {
                    try await store.setAlwaysShowsFullArticle(always, forFeed: feedID)
                    g_simple_action_set_state(held.pointer, g_variant_new_boolean(always.gboolean))
                    changed(feedID, always)
                } catch {
                    failed()
                }
            }
        }
        g_action_map_add_action(cast(window), cast(action))
        g_object_unref(cast(action))
    }

    /// Appends the check item for `feed` to `menu`, checked when the feed always shows the full
    /// article; `window` holds the action (nothing is appended where no window holds it).
    static func appendItem(to menu: OpaquePointer, for feed: StoredFeed, window: OpaquePointer?) {
        // A sidebar built alone, in a plain GtkWindow, has no window actions: no item.
        guard let window, g_type_check_instance_is_a(cast(window), g_action_map_get_type()) != 0,
              let action = g_action_map_lookup_action(cast(window), actionName) else { return }
        g_object_set_data(cast(action), feedKey, UnsafeMutableRawPointer(bitPattern: Int(feed.id)))
        g_simple_action_set_state(cast(action), g_variant_new_boolean(feed.alwaysShowsFullArticle.gboolean))
        let item = g_menu_item_new(tr("Always Show Full Article"), "win." + actionName)!
        g_menu_append_item(menu, item)
        g_object_unref(cast(item))
    }
}
