import CGtk
import FeedCore
import RefreshGtk

/// One row of the sidebar as a GObject a list model holds and row widgets bind to: All Feeds,
/// Starred, a saved search, a feed, a folder, an account or a label, with what its row shows in
/// the current language.
///
/// A Swift view of the object: copies share it, and the list models keep it alive.
@MainActor
struct SidebarItem {
    static let type = ObjectType(name: "FeedReaderSidebarItem", properties: [
        .init("kind", .int), .init("id", .int64),
        .init("title", .string), .init("subtitle", .string), .init("unread-count", .int),
        .init("icon-name", .string), .init("texture", .object(gdk_texture_get_type())),
        .init("has-error", .boolean), .init("tooltip", .string), .init("sync-error", .string),
        .init("accessible-name", .string), .init("accessible-description", .string),
        // The rows inside a folder or an account (a GListStore of items), NULL for the others.
        .init("children", .object(g_list_store_get_type())),
    ])

    let object: UnsafeMutablePointer<GObject>

    /// The item `object` (a FeedReaderSidebarItem) is.
    init(_ object: gpointer) { self.object = object.assumingMemoryBound(to: GObject.self) }

    /// A new item for `selection`, with the caller's reference.
    static func make(_ selection: FeedSelection) -> SidebarItem {
        let item = SidebarItem(type.make())
        let (kind, id): (Int32, Int64) = switch selection {
        case .all: (0, 0)
        case .starred: (1, 0)
        case let .folder(id): (2, id)
        case let .feed(id): (3, id)
        case let .account(id): (4, id)
        case let .savedSearch(id): (5, id)
        case let .label(id): (6, id)
        case .labelsHeading: (7, 0)
        }
        ObjectProperty.set(item.object, "kind", kind)
        ObjectProperty.set(item.object, "id", id)
        return item
    }

    /// The row it stands for.
    var selection: FeedSelection {
        let id: Int64 = ObjectProperty.get(object, "id")
        return switch ObjectProperty.get(object, "kind", as: Int32.self) {
        case 1: .starred
        case 2: .folder(id)
        case 3: .feed(id)
        case 4: .account(id)
        case 5: .savedSearch(id)
        case 6: .label(id)
        case 7: .labelsHeading
        default: .all
        }
    }

    var title: String {
        get { ObjectProperty.get(object, "title") }
        nonmutating set { ObjectProperty.set(object, "title", newValue) }
    }

    /// An account's user and service, empty for the other rows.
    var subtitle: String {
        get { ObjectProperty.get(object, "subtitle") }
        nonmutating set { ObjectProperty.set(object, "subtitle", newValue) }
    }

    /// How many entries are unread below it (Starred: how many are starred).
    var unreadCount: Int {
        get { Int(ObjectProperty.get(object, "unread-count", as: Int32.self)) }
        nonmutating set { ObjectProperty.set(object, "unread-count", Int32(clamping: newValue)) }
    }

    /// Whether the feed's last refresh failed: its row's icon carries a warning badge.
    var hasError: Bool {
        get { ObjectProperty.get(object, "has-error") }
        nonmutating set { ObjectProperty.set(object, "has-error", newValue) }
    }

    /// The symbolic icon shown when the row has no picture of its own.
    var iconName: String {
        get { ObjectProperty.get(object, "icon-name") }
        nonmutating set { ObjectProperty.set(object, "icon-name", newValue) }
    }

    /// The feed's own icon (a GdkTexture at the list's scale), shown with a warning badge when its last refresh failed.
    var texture: OpaquePointer? {
        get {
            guard let texture = ObjectProperty.object(object, "texture") else { return nil }
            g_object_unref(texture)
            return OpaquePointer(texture)
        }
        nonmutating set { ObjectProperty.setObject(object, "texture", newValue.map { UnsafeMutableRawPointer($0) }) }
    }

    /// The row's tooltip: a fetch or sync error, or a feed's mistakes; empty for none.
    var tooltip: String {
        get { ObjectProperty.get(object, "tooltip") }
        nonmutating set { ObjectProperty.set(object, "tooltip", newValue) }
    }

    /// Why an account's last sync failed, empty when it did not.
    var syncError: String {
        get { ObjectProperty.get(object, "sync-error") }
        nonmutating set { ObjectProperty.set(object, "sync-error", newValue) }
    }

    /// What a screen reader calls the row: "GNOME Desktop Notes, 3 unread".
    var accessibleName: String {
        get { ObjectProperty.get(object, "accessible-name") }
        nonmutating set { ObjectProperty.set(object, "accessible-name", newValue) }
    }

    /// What a screen reader says after the name.
    var accessibleDescription: String {
        get { ObjectProperty.get(object, "accessible-description") }
        nonmutating set { ObjectProperty.set(object, "accessible-description", newValue) }
    }

    /// The rows inside, for a folder or an account: a GListStore of items.
    var children: OpaquePointer? {
        guard let list = ObjectProperty.object(object, "children") else { return nil }
        g_object_unref(list)
        return OpaquePointer(list)
    }

    /// Gives the item a list of rows inside (once: a folder or account).
    func makeChildren() -> OpaquePointer {
        if let children { return children }
        let list = g_list_store_new(Self.type.gtype)!
        ObjectProperty.setObject(object, "children", UnsafeMutableRawPointer(list))
        g_object_unref(UnsafeMutableRawPointer(list))
        return list
    }

    /// The item a list model holds at `position`, or nil past its end.
    static func at(_ position: guint, in list: OpaquePointer) -> SidebarItem? {
        guard let object = g_list_model_get_item(cast(list), position) else { return nil }
        // The list keeps its own reference.
        g_object_unref(object)
        return SidebarItem(object)
    }

    /// Data a row hangs on the item while it shows it: how the row is found through the model.
    static let rowKey = "feed-reader-row"
}
