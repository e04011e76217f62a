import CGtk
import RefreshGtk

/// The entry list's GListModel: a position for every entry listed, and an ``EntryItem`` made
/// only when GTK asks for a position (for a row it shows), which goes with the last row that
/// showed it.
///
/// The list keeps what each position shows (its entry as read for listing); an item holds that
/// entry made into markup for its row, about a kilobyte, so one item per entry listed (a
/// GListStore's way) grew the window by some 10 MB for every 10,000 entries scrolled through.
/// Items live only for the rows GTK keeps, a few dozen however long the list.
///
/// While an item lives the model knows its position: the list refills the live items in place
/// (``liveItem(at:)``, ``liveItems``) and the rows bound to them follow their properties.
@MainActor
final class EntryListModel {
    /// The GListModel GTK sees. Whoever holds it (the list's selection) owns it; it keeps this
    /// object alive, as GTK may ask it for items for as long as it holds it.
    let object: UnsafeMutablePointer<GObject>
    /// How many positions the model has.
    private(set) var count = 0
    /// Fills a new item with what its position shows.
    var fill: ((EntryItem, Int) -> Void)?
    /// The items alive, by position; each watched by a weak reference that forgets it when it goes.
    private var items: [Int: UnsafeMutablePointer<GObject>] = [:]
    private var positions: [UnsafeMutableRawPointer: Int] = [:]

    init() {
        object = g_object_new_with_properties(Self.gtype, 0, nil, nil)
        Self.ownerSlot(of: object).pointee = Unmanaged.passRetained(self).toOpaque()
    }

    /// The item alive at `position`, if a row holds one there: nothing is made for the asking.
    func liveItem(at position: Int) -> EntryItem? {
        items[position].map { EntryItem($0) }
    }

    /// The items alive, with their positions.
    var liveItems: [(position: Int, item: EntryItem)] {
        items.map { ($0.key, EntryItem($0.value)) }
    }

    /// Removes `removed` positions at `position` and adds `added` there, then tells GTK. The
    /// items alive below keep their places, moved by the difference; those removed are forgotten.
    func splice(at position: Int, removing removed: Int, adding added: Int) {
        var kept: [Int: UnsafeMutablePointer<GObject>] = [:]
        for (at, item) in items {
            if at < position {
                kept[at] = item
            } else if at < position + removed {
                positions[UnsafeMutableRawPointer(item)] = nil
                g_object_weak_unref(item, Self.itemGone, Unmanaged.passUnretained(self).toOpaque())
            } else {
                kept[at - removed + added] = item
                positions[UnsafeMutableRawPointer(item)] = at - removed + added
            }
        }
        items = kept
        count += added - removed
        g_list_model_items_changed(OpaquePointer(object), guint(position), guint(removed), guint(added))
    }

    /// The item at `position`, with a reference for the caller: the one alive, or a new one.
    private func item(at position: Int) -> gpointer? {
        guard position >= 0, position < count else { return nil }
        if let item = items[position] { return g_object_ref(item) }
        let item = EntryItem.type.make()
        fill?(EntryItem(item), position)
        items[position] = item
        positions[UnsafeMutableRawPointer(item)] = position
        g_object_weak_ref(item, Self.itemGone, Unmanaged.passUnretained(self).toOpaque())
        return UnsafeMutableRawPointer(item)
    }

    private func forget(_ item: UnsafeMutableRawPointer) {
        guard let position = positions.removeValue(forKey: item) else { return }
        items[position] = nil
    }

    /// Stops watching every item alive, as the model goes.
    private func forgetAll() {
        for item in items.values { g_object_weak_unref(item, Self.itemGone, Unmanaged.passUnretained(self).toOpaque()) }
        items = [:]
        positions = [:]
    }

    // MARK: - GLib's side

    // GLib calls these on the main thread, where GTK runs; the pointers it passes are the main
    // thread's too (nonisolated(unsafe) hands them to its isolation).

    private static let itemGone: GWeakNotify = { owner, item in
        guard let owner, let item else { return }
        nonisolated(unsafe) let (model, gone) = (owner, item)
        MainActor.assumeIsolated { Unmanaged<EntryListModel>.fromOpaque(model).takeUnretainedValue().forget(gone) }
    }

    /// Where the object keeps this, after GObject's own fields.
    nonisolated private static func ownerSlot(of object: UnsafeMutableRawPointer) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        (object + MemoryLayout<GObject>.size).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    nonisolated private static func owner(of object: UnsafeMutableRawPointer?) -> EntryListModel? {
        guard let object, let owner = ownerSlot(of: object).pointee else { return nil }
        return Unmanaged<EntryListModel>.fromOpaque(owner).takeUnretainedValue()
    }

    private static let gtype: GType = {
        var info = GTypeInfo()
        info.class_size = guint16(MemoryLayout<GObjectClass>.size)
        info.instance_size = guint16(MemoryLayout<GObject>.size + MemoryLayout<UnsafeMutableRawPointer?>.size)
        info.class_init = { klass, _ in
            klass?.assumingMemoryBound(to: GObjectClass.self).pointee.finalize = finalize
        }
        let type = g_type_register_static(GType.object, "FeedReaderEntryListModel", &info, GTypeFlags(0))
        var list = GInterfaceInfo()
        list.interface_init = { interface, _ in
            guard let interface = interface?.assumingMemoryBound(to: GListModelInterface.self) else { return }
            interface.pointee.get_item_type = { _ in MainActor.assumeIsolated { EntryItem.type.gtype } }
            interface.pointee.get_n_items = { list in
                nonisolated(unsafe) let model = UnsafeMutableRawPointer(list)
                return MainActor.assumeIsolated { guint(owner(of: model)?.count ?? 0) }
            }
            interface.pointee.get_item = { list, position in
                nonisolated(unsafe) let model = UnsafeMutableRawPointer(list)
                // As an address: a pointer is no value to hand out of the main actor's isolation.
                let item = MainActor.assumeIsolated { owner(of: model)?.item(at: Int(position)).map { UInt(bitPattern: $0) } }
                return item.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
            }
        }
        g_type_add_interface_static(type, g_list_model_get_type(), &list)
        return type
    }()

    private static let finalize: @convention(c) (UnsafeMutablePointer<GObject>?) -> Void = { object in
        guard let object else { return }
        if let owner = ownerSlot(of: object).pointee {
            ownerSlot(of: object).pointee = nil
            nonisolated(unsafe) let owner = owner
            MainActor.assumeIsolated {
                let model = Unmanaged<EntryListModel>.fromOpaque(owner)
                model.takeUnretainedValue().forgetAll()
                model.release()
            }
        }
        let parent = g_type_class_peek(GType.object).assumingMemoryBound(to: GObjectClass.self)
        parent.pointee.finalize(object)
    }
}
