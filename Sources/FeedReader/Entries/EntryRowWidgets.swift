import CGtk
import RefreshGtk

/// The widgets of one row of the entry list, made once and bound to whichever ``EntryItem`` the
/// list item shows now: the title with the star over its end, the feed, author and date after an
/// icon when the entry carries an episode or a video, and the summary's first line.
///
/// The media icon and the hidden-by-rule marker are made for the first entry the row shows that
/// needs them, as the sidebar's error badge is: most entries need neither, and the list keeps a
/// row for every entry around the screen.
@MainActor
final class EntryRowWidgets {
    let box: UnsafeMutablePointer<GtkWidget>
    private let heading: UnsafeMutablePointer<GtkWidget>
    let title: UnsafeMutablePointer<GtkWidget>
    let star: UnsafeMutablePointer<GtkWidget>
    let meta: UnsafeMutablePointer<GtkWidget>
    /// An audio or video icon before the byline, for an entry with something to play; made, with
    /// the box that holds it beside the byline, for the first such entry the row shows.
    private(set) var mediaIcon: UnsafeMutablePointer<GtkWidget>?
    let summary: UnsafeMutablePointer<GtkWidget>
    /// "Hidden by rule", on an entry a rule hid (listed while hidden entries are shown); made for
    /// the first such entry the row shows.
    private(set) var hiddenMarker: UnsafeMutablePointer<GtkWidget>?
    /// The item shown, while bound.
    private(set) var item: EntryItem?
    private let bindings = PropertyBindings()
    /// The connection to the item's notify, while bound.
    private var itemHandler: Signal.HandlerID = 0

    /// Key under which a list item holds its row's widgets.
    static let listItemKey = "feed-reader-entry-row"

    init() {
        title = Widgets.label("", classes: ["entry-title"])
        gtk_label_set_use_markup(cast(title), 1)
        // Wrapped at the list's width; a word-wrapped natural width as well (natural-wrap-mode
        // WORD) laid every title out once more for each search keystroke.
        gtk_label_set_wrap(cast(title), 1)
        gtk_widget_set_hexpand(title, 1)
        star = gtk_image_new_from_icon_name("starred-symbolic")!
        gtk_widget_set_valign(star, GTK_ALIGN_START)
        gtk_widget_set_halign(star, GTK_ALIGN_END)
        gtk_widget_add_css_class(star, "entry-star")
        // The star lies over the title's end margin rather than beside it in a box: a horizontal
        // box asks a wrapped label its width for the row's height, which GtkLabel finds by
        // laying the title out some ten times over; a search keystroke whose results changed
        // did that for every row, twice, most of its 60 to 190 ms.
        heading = gtk_overlay_new()!
        gtk_overlay_set_child(cast(heading), title)
        gtk_overlay_add_overlay(cast(heading), star)
        meta = Widgets.label("", classes: ["caption", "dim-label"])
        // A long feed name or author would otherwise set the list's narrowest width, and the
        // panes' split would move with the entries shown.
        gtk_label_set_ellipsize(cast(meta), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(meta, 1)
        summary = Widgets.label("", classes: ["entry-summary"])
        gtk_label_set_use_markup(cast(summary), 1)
        gtk_label_set_ellipsize(cast(summary), PANGO_ELLIPSIZE_END)
        gtk_label_set_single_line_mode(cast(summary), 1)
        box = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 3, [heading, meta, summary])
        Widgets.setMargins(box, horizontal: 14, vertical: 10)
        gtk_widget_add_css_class(box, "entry-row")
    }

    /// Shows `item` from now on, following its properties, and hangs on it: the row is found
    /// through the model's item.
    func bind(to item: EntryItem) {
        unbind()
        self.item = item
        let (object, sync) = (item.object, G_BINDING_SYNC_CREATE)
        bindings.keep(g_object_bind_property(object, "title-markup", title, "label", sync))
        bindings.keep(g_object_bind_property_full(object, "is-read", title, "css-classes", sync, BindingTransform.entryTitleClasses, nil, nil, nil))
        bindings.keep(g_object_bind_property(object, "is-starred", star, "visible", sync))
        // The star lies over the title's end: the title leaves it room, measured once the star shows
        // (the binding above, made first, runs first).
        bindings.keep(g_object_bind_property_full(object, "is-starred", title, "margin-end", sync, BindingTransform.starRoom, nil, star, nil))
        bindings.keep(g_object_bind_property(object, "meta", meta, "label", sync))
        bindings.keep(g_object_bind_property(object, "summary-markup", summary, "label", sync))
        bindings.keep(g_object_bind_property_full(object, "summary-markup", summary, "visible", sync, BindingTransform.isNonEmpty, nil, nil, nil))
        itemHandler = Signal.connectIgnoringArgument(item.object, "notify") { [weak self] in self?.showUnboundState() }
        ObjectData.set(self, on: item.object, EntryItem.rowKey)
        showUnboundState()
    }

    /// Stops showing the item.
    func unbind() {
        guard let item else { return }
        bindings.unbindAll()
        g_signal_handler_disconnect(cast(item.object), itemHandler)
        // The item may be bound to another row already: the list bound it there before unbinding it here.
        if ObjectData.get(item.object, EntryItem.rowKey, as: EntryRowWidgets.self) === self { ObjectData.set(nil, on: item.object, EntryItem.rowKey) }
        self.item = nil
    }

    /// What no property binding can carry: the widgets made only when needed (the media icon,
    /// the hidden marker), the hidden style (a CSS class), the row's direction and the name
    /// screen readers read (no GObject property).
    private func showUnboundState() {
        guard let item else { return }
        showMedia(item.mediaIcon)
        showHidden(item.isHidden)
        // The row reads in its entry's own direction, every line of it (those just made too): an
        // English entry in an Arabic window starts at the left, title, byline and summary alike,
        // and the reverse.
        Widgets.setDirection(Self.direction(of: [title, summary]), of: box)
        // The list's row widget is what a screen reader lands on: it gets the whole row in words.
        if let row = gtk_widget_get_parent(box) { cgtk_accessible_set_label(cast(row), item.accessibleName) }
    }

    /// Shows the icon named `iconName` before the byline, none when it is empty.
    private func showMedia(_ iconName: String) {
        if !iconName.isEmpty, mediaIcon == nil { addMediaIcon() }
        guard let mediaIcon else { return }
        let shown = gtk_image_get_icon_name(cast(mediaIcon)).map { String(cString: $0) } ?? ""
        if shown != iconName { gtk_image_set_from_icon_name(cast(mediaIcon), iconName.isEmpty ? nil : iconName) }
        gtk_widget_set_visible(mediaIcon, (!iconName.isEmpty).gboolean)
    }

    /// Puts the byline in a box, where it was, after the icon.
    private func addMediaIcon() {
        let icon = gtk_image_new()!
        gtk_image_set_pixel_size(cast(icon), 12)
        gtk_widget_add_css_class(icon, "dim-label")
        // The row lets go of the byline as it gives it up: held meanwhile.
        g_object_ref(cast(meta))
        gtk_box_remove(cast(box), meta)
        let byline = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4, [icon, meta])
        g_object_unref(cast(meta))
        gtk_box_insert_child_after(cast(box), byline, heading)
        mediaIcon = icon
    }

    /// Marks the row as hidden by a rule while `hidden`, making the marker the first time.
    private func showHidden(_ hidden: Bool) {
        if hidden, hiddenMarker == nil {
            let marker = Widgets.label("", classes: ["caption", "entry-hidden-marker"])
            gtk_box_append(cast(box), marker)
            hiddenMarker = marker
        }
        if let hiddenMarker {
            gtk_widget_set_visible(hiddenMarker, hidden.gboolean)
            // Set here, not once: a language switch renames it with the item's accessible name.
            if hidden { gtk_label_set_text(cast(hiddenMarker), tr("Hidden by rule")) }
        }
        if hidden {
            gtk_widget_add_css_class(box, "hidden-entry")
        } else {
            gtk_widget_remove_css_class(box, "hidden-entry")
        }
    }

    /// The direction of the first of `labels` whose text has one (its first letter's), else the window's.
    static func direction(of labels: [UnsafeMutablePointer<GtkWidget>]) -> GtkTextDirection {
        for label in labels {
            switch pango_find_base_dir(gtk_label_get_text(cast(label)), -1) {
            case PANGO_DIRECTION_LTR: return GTK_TEXT_DIR_LTR
            case PANGO_DIRECTION_RTL: return GTK_TEXT_DIR_RTL
            default: continue
            }
        }
        return GTK_TEXT_DIR_NONE
    }
}
