import CGtk
import RefreshGtk

/// The widgets of one row of the entry list, made once and bound to whichever ``EntryItem`` the
/// list item shows now: the title with the star over its end, the feed, author and date after an
/// icon when the entry carries an episode or a video, and the summary's first line.
@MainActor
final class EntryRowWidgets {
    let box: UnsafeMutablePointer<GtkWidget>
    let title: UnsafeMutablePointer<GtkWidget>
    let star: UnsafeMutablePointer<GtkWidget>
    let meta: UnsafeMutablePointer<GtkWidget>
    /// An audio or video icon before the byline, for an entry with something to play.
    let mediaIcon: UnsafeMutablePointer<GtkWidget>
    let summary: UnsafeMutablePointer<GtkWidget>
    /// "Hidden by rule", on an entry a rule hid (listed while hidden entries are shown).
    let hiddenMarker: UnsafeMutablePointer<GtkWidget>
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
        let heading = gtk_overlay_new()!
        gtk_overlay_set_child(cast(heading), title)
        gtk_overlay_add_overlay(cast(heading), star)
        meta = Widgets.label("", classes: ["caption", "dim-label"])
        // A long feed name or author would otherwise set the list's narrowest width, and the
        // panes' split would move with the entries shown.
        gtk_label_set_ellipsize(cast(meta), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(meta, 1)
        mediaIcon = gtk_image_new()!
        gtk_image_set_pixel_size(cast(mediaIcon), 12)
        gtk_widget_add_css_class(mediaIcon, "dim-label")
        let byline = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4, [mediaIcon, meta])
        summary = Widgets.label("", classes: ["entry-summary"])
        gtk_label_set_use_markup(cast(summary), 1)
        gtk_label_set_ellipsize(cast(summary), PANGO_ELLIPSIZE_END)
        gtk_label_set_single_line_mode(cast(summary), 1)
        hiddenMarker = Widgets.label("", classes: ["caption", "entry-hidden-marker"])
        gtk_widget_set_visible(hiddenMarker, 0)
        box = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 3, [heading, byline, summary, hiddenMarker])
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
        bindings.keep(g_object_bind_property(object, "is-hidden", hiddenMarker, "visible", sync))
        bindings.keep(g_object_bind_property(object, "media-icon", mediaIcon, "icon-name", sync))
        bindings.keep(g_object_bind_property_full(object, "media-icon", mediaIcon, "visible", sync, BindingTransform.isNonEmpty, nil, nil, nil))
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

    /// What no property binding can carry: the hidden style (a CSS class), the row's direction and
    /// the name screen readers read (no GObject property).
    private func showUnboundState() {
        guard let item else { return }
        // The row reads in its entry's own direction, every line of it: an English entry in an
        // Arabic window starts at the left, title, byline and summary alike, and the reverse.
        Widgets.setDirection(Self.direction(of: [title, summary]), of: box)
        if item.isHidden {
            // Set here, not once: a language switch renames it with the item's accessible name.
            gtk_label_set_text(cast(hiddenMarker), tr("Hidden by rule"))
            gtk_widget_add_css_class(box, "hidden-entry")
        } else {
            gtk_widget_remove_css_class(box, "hidden-entry")
        }
        // The list's row widget is what a screen reader lands on: it gets the whole row in words.
        if let row = gtk_widget_get_parent(box) { cgtk_accessible_set_label(cast(row), item.accessibleName) }
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
