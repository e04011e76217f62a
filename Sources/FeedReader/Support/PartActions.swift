import CGtk
import RefreshGtk

/// A part's actions, listed once as an enum whose raw values are their names: the `.ui` file's
/// buttons and menus name them as `prefix.raw-value`.
protocol PartAction: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// A part's actions, installed on its widget under `prefix` from its typed list, each running
/// `perform`; a control whose action is disabled is insensitive.
@MainActor
final class PartActions<Action: PartAction> {
    /// The group's prefix: `add-feed` makes `add-feed.add`.
    let prefix: String
    private let group: UnsafeMutablePointer<GSimpleActionGroup>
    private var actions: [String: OpaquePointer] = [:]

    init(on widget: UnsafeMutablePointer<GtkWidget>, prefix: String, _ perform: @escaping @MainActor (Action) -> Void) {
        self.prefix = prefix
        group = g_simple_action_group_new()!
        for action in Action.allCases {
            let simple = g_simple_action_new(action.rawValue, nil)!
            Signal.connectIgnoringArgument(cast(simple), "activate") { perform(action) }
            g_action_map_add_action(cast(group), cast(simple))
            actions[action.rawValue] = simple
            g_object_unref(cast(simple))
        }
        gtk_widget_insert_action_group(widget, prefix, cast(group))
    }

    isolated deinit {
        g_object_unref(cast(group))
    }

    /// Enables or disables `action`, and with it the controls that name it.
    func setEnabled(_ action: Action, _ enabled: Bool) {
        guard let simple = actions[action.rawValue] else { return }
        g_simple_action_set_enabled(simple, enabled.gboolean)
    }

    /// Whether `action` can be activated now.
    func isEnabled(_ action: Action) -> Bool {
        g_action_group_get_action_enabled(cast(group), action.rawValue) != 0
    }

    /// Activates `action` as its control would.
    func activate(_ action: Action) {
        g_action_group_activate_action(cast(group), action.rawValue, nil)
    }
}
