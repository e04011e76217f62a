import AppSignals
import CGtk
import FeedCore
import RefreshGtk

/// The widgets of one row of the sidebar, made once and filled with whatever row the list item
/// shows now: the expander (with its arrow), the icon, the name (and an account's user below
/// it), a failed refresh's badge over the icon, a sync error's icon and the unread count.
@MainActor
final class SidebarRowWidgets {
    let expander: UnsafeMutablePointer<GtkWidget>
    let box: UnsafeMutablePointer<GtkWidget>
    let icon: UnsafeMutablePointer<GtkWidget>
    /// The small warning over the icon's corner while the feed's last refresh failed: the feed
    /// stays recognisable by its own icon. Made, with the overlay it needs, for the first failed
    /// feed the row shows: GTK's list keeps 200 rows of a long sidebar, each of which would
    /// otherwise hold two widgets more for a badge seldom shown.
    private(set) var errorBadge: UnsafeMutablePointer<GtkWidget>?
    private var overlay: UnsafeMutablePointer<GtkWidget>?
    /// The icon, with its badge once it has one: hidden on a heading's row.
    var iconWithBadge: UnsafeMutablePointer<GtkWidget> { overlay ?? icon }
    let name: UnsafeMutablePointer<GtkWidget>
    let subtitle: UnsafeMutablePointer<GtkWidget>
    let problem: UnsafeMutablePointer<GtkWidget>
    let count: UnsafeMutablePointer<GtkWidget>
    /// The GtkTreeListRow shown, while the list item is bound.
    var row: OpaquePointer?
    /// The item shown, while the list item is bound.
    var sidebarItem: SidebarItem?
    /// The widgets' properties bound to the item's, while bound.
    let bindings = PropertyBindings()
    /// The connections to the item's notify and the row's notify::expanded, while bound.
    var itemHandler: Signal.HandlerID = 0
    var expandedHandler: Signal.HandlerID = 0

    init() {
        icon = gtk_image_new()!
        gtk_image_set_pixel_size(cast(icon), FeedIconTextures.size)
        // An ordinary name beside a three-figure count ("Field Notes: Open Source Gardening")
        // is longer than the sidebar's line: it goes on to a second line, as GNOME's sidebars
        // let a name do, and only a longer one is cut, whole in its tooltip. Wrapping is bound
        // to the name's length (``wrapsLongName``).
        name = Widgets.label("")
        gtk_label_set_wrap_mode(cast(name), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_lines(cast(name), Self.nameLines)
        gtk_label_set_ellipsize(cast(name), PANGO_ELLIPSIZE_END)
        gtk_widget_set_has_tooltip(name, 1)
        subtitle = Widgets.label("", classes: ["dim-label", "caption"])
        gtk_label_set_ellipsize(cast(subtitle), PANGO_ELLIPSIZE_END)
        let titles = Widgets.box(GTK_ORIENTATION_VERTICAL, [name, subtitle])
        gtk_widget_set_hexpand(titles, 1)
        gtk_widget_set_valign(titles, GTK_ALIGN_CENTER)
        problem = gtk_image_new_from_icon_name("dialog-warning-symbolic")!
        gtk_widget_add_css_class(problem, "error")
        // The count is a small dim pill as wide as its figures, beside the name's first line.
        count = Widgets.label("", classes: ["unread-count", "caption"], xalign: 0.5)
        gtk_widget_set_valign(count, GTK_ALIGN_CENTER)
        box = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [icon, titles, problem, count])
        Widgets.setMargins(box, horizontal: 6, vertical: 6)
        gtk_widget_set_margin_start(box, 0)
        expander = gtk_tree_expander_new()!
        gtk_tree_expander_set_child(cast(expander), box)
        Signal.connectQueryTooltip(name) { [weak self] tooltip in
            guard let text = self?.nameTooltip else { return false }
            gtk_tooltip_set_text(tooltip, text)
            return true
        }
    }

    /// The lines a name may take before it is cut.
    static let nameLines: Int32 = 2

    /// Names of at most this many columns (a wide East Asian character taking two) fit on one
    /// line of the sidebar at its narrowest (beside the list and the article), in capitals,
    /// beside a three-figure count, with room for a folder's indent.
    nonisolated static let oneLineNameColumns = 12

    /// A name to whether its label wraps. A wrapping label lays its text out again for every
    /// width it is measured at: wrapping every name of a thousand feeds took a fifth of the
    /// instructions to the first frame (docs/performance.md), for names that mostly fit anyway.
    static let wrapsLongName: GBindingTransformFunc = { _, from, to, _ in
        guard let from, let to else { return 0 }
        let name = g_value_get_string(from).map { String(cString: $0) } ?? ""
        g_value_set_boolean(to, (columns(of: name) > oneLineNameColumns).gboolean)
        return 1
    }

    /// The columns `text` takes: two for a wide character (CJK, Hangul, kana, full-width forms, emoji), one for others.
    nonisolated static func columns(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            let wide = scalar.properties.isIdeographic || scalar.properties.isEmojiPresentation
                || (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
                || (0xAC00...0xD7A3).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
                || (0xFE30...0xFE4F).contains(scalar.value) || (0xFF00...0xFF60).contains(scalar.value)
                || (0xFFE0...0xFFE6).contains(scalar.value)
            return sum + (wide ? 2 : 1)
        }
    }

    /// The tooltip over the name: the whole name when it is cut short, above the row's own
    /// tooltip (a failure, a feed's mistakes); nil when the name shows in full, and the row's
    /// tooltip shows alone.
    var nameTooltip: String? {
        guard isNameCut else { return nil }
        let fullName = String(cString: gtk_label_get_text(cast(name)))
        guard let rowTooltip = gtk_widget_get_tooltip_text(box) else { return fullName }
        return fullName + "\n" + String(cString: rowTooltip)
    }

    /// Whether the name is cut short at the width the row has now.
    var isNameCut: Bool {
        guard let layout = gtk_label_get_layout(cast(name)) else { return false }
        return pango_layout_is_ellipsized(layout) != 0
    }

    /// The row this shows now.
    var item: FeedSelection? { sidebarItem?.selection }

    /// Shows the error badge over the icon while `failed`, making it the first time.
    func showError(_ failed: Bool) {
        if failed, errorBadge == nil { addErrorBadge() }
        if let errorBadge { gtk_widget_set_visible(errorBadge, failed.gboolean) }
    }

    /// Puts the icon in an overlay, first in the row as it was, with the badge over its corner.
    private func addErrorBadge() {
        let badge = gtk_image_new_from_icon_name("dialog-warning-symbolic")!
        gtk_image_set_pixel_size(cast(badge), 10)
        gtk_widget_set_halign(badge, GTK_ALIGN_END)
        gtk_widget_set_valign(badge, GTK_ALIGN_END)
        gtk_widget_add_css_class(badge, "feed-error-badge")
        let overlay = gtk_overlay_new()!
        // The box lets go of the icon as it gives it up: held meanwhile.
        g_object_ref(cast(icon))
        gtk_box_remove(cast(box), icon)
        gtk_overlay_set_child(cast(overlay), icon)
        g_object_unref(cast(icon))
        gtk_overlay_add_overlay(cast(overlay), badge)
        gtk_box_prepend(cast(box), overlay)
        (errorBadge, self.overlay) = (badge, overlay)
    }

    /// Key under which a list item holds its row's widgets.
    static let listItemKey = "feed-reader-row-widgets"
}

extension FeedSidebar {
    /// Makes a row's widgets once, hung on the list item; the drag, the drop and the context menu
    /// act on the row it shows then.
    func setUpRow(_ listItem: gpointer) {
        let widgets = SidebarRowWidgets()
        gtk_list_item_set_child(cast(listItem), widgets.expander)
        ObjectData.set(widgets, on: listItem, SidebarRowWidgets.listItemKey)

        let menuClick = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(cast(menuClick), guint(GDK_BUTTON_SECONDARY))
        Signal.connectClickAt(cast(menuClick), "pressed") { [weak self, weak widgets] x, y in
            if let widgets { self?.showMenu(on: widgets, x: x, y: y) }
        }
        gtk_widget_add_controller(widgets.box, cast(menuClick))

        makeDraggable(widgets)
        acceptDrops(on: widgets)
    }

    /// Binds the row's widgets to the item it shows now, and hangs them on the item: the row is
    /// found through the model's item.
    func bind(_ listItem: gpointer) {
        guard let widgets = ObjectData.get(listItem, SidebarRowWidgets.listItemKey, as: SidebarRowWidgets.self),
              let row = gtk_list_item_get_item(cast(listItem)), let object = gtk_tree_list_row_get_item(OpaquePointer(row)) else { return }
        // The tree list row keeps its item.
        g_object_unref(object)
        let listRow = OpaquePointer(row)
        let item = SidebarItem(object)
        let selection = item.selection
        // At start the model fills only the items that rows show, as they are bound.
        model.fill(selection)
        widgets.row = listRow
        widgets.sidebarItem = item
        gtk_tree_expander_set_list_row(cast(widgets.expander), listRow)
        let (bindings, sync) = (widgets.bindings, G_BINDING_SYNC_CREATE)
        bindings.keep(g_object_bind_property(object, "title", widgets.name, "label", sync))
        bindings.keep(g_object_bind_property_full(object, "title", widgets.name, "wrap", sync, SidebarRowWidgets.wrapsLongName, nil, nil, nil))
        bindings.keep(g_object_bind_property(object, "subtitle", widgets.subtitle, "label", sync))
        bindings.keep(g_object_bind_property_full(object, "subtitle", widgets.subtitle, "visible", sync, BindingTransform.isNonEmpty, nil, nil, nil))
        bindings.keep(g_object_bind_property_full(object, "unread-count", widgets.count, "label", sync, BindingTransform.countOrNothing, nil, nil, nil))
        bindings.keep(g_object_bind_property_full(object, "unread-count", widgets.count, "visible", sync, BindingTransform.isPositive, nil, nil, nil))
        bindings.keep(g_object_bind_property_full(object, "sync-error", widgets.problem, "visible", sync, BindingTransform.isNonEmpty, nil, nil, nil))
        bindings.keep(g_object_bind_property_full(object, "tooltip", widgets.box, "tooltip-text", sync, BindingTransform.noneWhenEmpty, nil, nil, nil))
        widgets.itemHandler = Signal.connectIgnoringArgument(object, "notify") { [weak widgets] in widgets?.showUnboundState() }
        widgets.expandedHandler = Signal.connectIgnoringArgument(cast(listRow), "notify::expanded") { [weak self, weak widgets] in
            widgets?.showUnboundState()
            self?.rowOpenedOrClosed(listRow)
        }
        ObjectData.set(widgets, on: object, SidebarItem.rowKey)
        let isHeading = selection == .labelsHeading
        // A section's heading is neither selected nor opened, and shows no icon, as libadwaita's sidebars head theirs.
        gtk_list_item_set_selectable(cast(listItem), (!isHeading).gboolean)
        gtk_list_item_set_activatable(cast(listItem), (!isHeading).gboolean)
        gtk_widget_set_visible(widgets.iconWithBadge, (!isHeading).gboolean)
        for (name, on) in [("heading", selection.accountID != nil || isHeading), ("dim-label", isHeading)] {
            if on { gtk_widget_add_css_class(widgets.name, name) } else { gtk_widget_remove_css_class(widgets.name, name) }
        }
        if case let .feed(id) = selection { showIcon(of: item, feedID: id) }
        widgets.showUnboundState()
    }

    func unbind(_ listItem: gpointer) {
        guard let widgets = ObjectData.get(listItem, SidebarRowWidgets.listItemKey, as: SidebarRowWidgets.self),
              let row = widgets.row, let item = widgets.sidebarItem else { return }
        widgets.bindings.unbindAll()
        g_signal_handler_disconnect(cast(item.object), widgets.itemHandler)
        g_signal_handler_disconnect(cast(row), widgets.expandedHandler)
        // An item moved to another level is bound to its new row before its old row lets go of it.
        if rowWidgets(showing: item) === widgets { ObjectData.set(nil, on: item.object, SidebarItem.rowKey) }
        gtk_tree_expander_set_list_row(cast(widgets.expander), nil)
        widgets.row = nil
        widgets.sidebarItem = nil
    }

    /// Gives the feeds shown on screen their icons as the icon cache has them now, at the list's scale.
    func showIconsAgain() {
        for item in model.allItems where rowWidgets(showing: item) != nil {
            if case let .feed(id) = item.selection { showIcon(of: item, feedID: id) }
        }
    }

    private func showIcon(of item: SidebarItem, feedID: Int64) {
        guard let feed = model.feed(id: feedID) else { return }
        item.texture = icons?.texture(for: feed, scale: gtk_widget_get_scale_factor(listView))
    }

    /// The widgets of the row showing `item`, found through the item, when the row is on screen.
    func rowWidgets(showing item: SidebarItem) -> SidebarRowWidgets? {
        ObjectData.get(item.object, SidebarItem.rowKey)
    }

    /// The widgets of the row showing `selection`, when the row is on screen (or about to be).
    func rowWidgets(showing selection: FeedSelection) -> SidebarRowWidgets? {
        model.item(selection).flatMap(rowWidgets(showing:))
    }

    /// The list's row widget showing `item`, when it is on screen (or about to be).
    func rowWidget(showing item: FeedSelection) -> UnsafeMutablePointer<GtkWidget>? {
        rowWidgets(showing: item).flatMap { gtk_widget_get_parent($0.expander) }
    }

    /// The tooltip of `feedID`'s row, when the row is on screen: where a fetch error or the feed's mistakes show.
    func tooltip(forFeed feedID: Int64) -> String? {
        tooltip(of: .feed(feedID))
    }

    /// The tooltip of `item`'s row, when the row is on screen: a fetch or sync error, or a feed's mistakes.
    func tooltip(of item: FeedSelection) -> String? {
        guard let widgets = rowWidgets(showing: item), let text = gtk_widget_get_tooltip_text(widgets.box) else { return nil }
        return String(cString: text)
    }
}

extension SidebarRowWidgets {
    /// Shows what no property binding can carry: the icon, the names and state screen readers
    /// read (accessible properties are no GObject properties), and the problem icon's name.
    func showUnboundState() {
        guard let item = sidebarItem else { return }
        // Two properties of the image, of which setting one clears the other: no binding can carry them.
        if let texture = item.texture {
            gtk_image_set_from_paintable(cast(icon), cast(texture))
        } else {
            gtk_image_set_from_icon_name(cast(icon), item.iconName)
        }
        showError(item.hasError)
        let syncError = item.syncError
        if !syncError.isEmpty { Widgets.name(problem, syncError) }
        cgtk_accessible_set_description(cast(box), item.accessibleDescription)
        // The expander takes the keyboard's focus inside the row: it is named as the row is.
        let name = item.accessibleName
        cgtk_accessible_set_label(cast(expander), name)
        guard let listRow = gtk_widget_get_parent(expander) else { return }
        cgtk_accessible_set_label(cast(listRow), name)
        if item.children != nil, let row {
            cgtk_accessible_set_expanded(cast(listRow), gtk_tree_list_row_get_expanded(row))
        } else {
            gtk_accessible_reset_state(cast(listRow), GTK_ACCESSIBLE_STATE_EXPANDED)
        }
    }
}
