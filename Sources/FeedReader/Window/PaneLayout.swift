import CGtk
import RefreshGtk

/// The feeds, the entries and the article side by side while the window is wide; one of them at
/// a time below `narrowWidth`, or where the three would not fit (long labels in some languages),
/// so the reader works in a narrow or portrait window.
///
/// Two dividers separate the wide panes: their positions are the pane widths the window
/// remembers. Narrow, the hidden panes stay where they are, so the dividers keep their places.
@MainActor
final class PaneLayout {
    /// A pane, in reading order: Back leads from one to the one before.
    enum Pane: Int, CaseIterable {
        case feeds, entries, article
    }

    /// Below this width, in pixels, one pane shows at a time.
    nonisolated static let narrowWidth: Int32 = 900

    /// Whether a layout `width` pixels wide shows one pane at a time, when the three panes need
    /// at least `wideMinimum` pixels side by side.
    ///
    /// At their minimum the three panes also give way: the window cannot shrink below it, so a
    /// window pinned there would never turn narrow.
    nonisolated static func isNarrow(width: Int32, wideMinimum: Int32 = 0) -> Bool {
        width < narrowWidth || width <= wideMinimum
    }

    /// The pane Back returns to from `pane`; nil from the feeds.
    nonisolated static func pane(before pane: Pane) -> Pane? { Pane(rawValue: pane.rawValue - 1) }

    /// The panes shown: every one when wide, only `page` when narrow.
    nonisolated static func visiblePanes(narrow: Bool, page: Pane) -> [Pane] {
        narrow ? [page] : Pane.allCases
    }

    /// The layout, sized to the window.
    let widget: UnsafeMutablePointer<GtkWidget>
    private let outer: UnsafeMutablePointer<GtkWidget>
    private let reading: UnsafeMutablePointer<GtkWidget>
    private let panes: [Pane: UnsafeMutablePointer<GtkWidget>]
    /// Whether one pane shows at a time.
    private(set) var isNarrow = false
    /// The pane shown while narrow.
    private(set) var page = Pane.entries
    /// The narrowest the three panes can be side by side, as last measured while they were.
    private var wideMinimum: Int32 = 0

    /// Called when the panes shown change: narrow or wide, or another page.
    var onChange: (() -> Void)?

    /// The feeds pane's width: the first divider's position.
    var sidebarWidth: Int32 { gtk_paned_get_position(cast(outer)) }
    /// The entries pane's width: the second divider's position.
    var listWidth: Int32 { gtk_paned_get_position(cast(reading)) }

    /// The panes shown now, in reading order.
    var visiblePanes: [Pane] { Self.visiblePanes(narrow: isNarrow, page: page) }

    init(feeds: UnsafeMutablePointer<GtkWidget>, entries: UnsafeMutablePointer<GtkWidget>,
         article: UnsafeMutablePointer<GtkWidget>, sidebarWidth: Int32, listWidth: Int32) {
        panes = [.feeds: feeds, .entries: entries, .article: article]
        reading = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_paned_set_start_child(cast(reading), entries)
        gtk_paned_set_end_child(cast(reading), article)
        // A wider window widens the article: the list keeps the width it was given.
        gtk_paned_set_resize_start_child(cast(reading), 0)
        gtk_paned_set_shrink_start_child(cast(reading), 0)
        gtk_paned_set_shrink_end_child(cast(reading), 0)
        gtk_paned_set_position(cast(reading), listWidth)
        outer = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_paned_set_start_child(cast(outer), feeds)
        gtk_paned_set_end_child(cast(outer), reading)
        gtk_paned_set_resize_start_child(cast(outer), 0)
        gtk_paned_set_shrink_start_child(cast(outer), 0)
        gtk_paned_set_shrink_end_child(cast(outer), 0)
        gtk_paned_set_position(cast(outer), sidebarWidth)

        // GTK 4.8 has no breakpoints: an invisible area as large as the layout reports its width.
        let sizer = cgtk_drawing_area_new_with_role(GTK_ACCESSIBLE_ROLE_PRESENTATION)!
        gtk_widget_set_can_target(sizer, 0)
        gtk_widget_set_can_focus(sizer, 0)
        widget = gtk_overlay_new()!
        gtk_overlay_set_child(cast(widget), outer)
        gtk_overlay_add_overlay(cast(widget), sizer)
        Signal.connectSize(cast(sizer), "resize") { [weak self] width, _ in self?.widthChanged(width) }
        retranslate()
    }

    /// Names the dividers for screen readers, which can move them, in the current language.
    func retranslate() {
        // TRANSLATORS: for screen readers: the movable divider between the feed list and the entries.
        cgtk_accessible_set_label(cast(outer), tr("Divider between the feeds and the entries"))
        // TRANSLATORS: for screen readers: the movable divider between the entry list and the article.
        cgtk_accessible_set_label(cast(reading), tr("Divider between the entries and the article"))
    }

    /// Shows `pane`: while narrow it replaces the pane shown; while wide every pane shows already.
    func show(_ pane: Pane) {
        guard pane != page else { return }
        page = pane
        if isNarrow { apply() }
    }

    /// Goes back to the pane before the one shown while narrow; false when there is none.
    @discardableResult
    func back() -> Bool {
        guard isNarrow, let previous = Self.pane(before: page) else { return false }
        show(previous)
        return true
    }

    private func widthChanged(_ width: Int32) {
        if !isNarrow { gtk_widget_measure(outer, GTK_ORIENTATION_HORIZONTAL, -1, &wideMinimum, nil, nil, nil) }
        let narrow = Self.isNarrow(width: width, wideMinimum: wideMinimum)
        guard narrow != isNarrow else { return }
        // Not while GTK allocates: showing and hiding panes asks for a new layout.
        MainThread.after(0) { [weak self] in
            guard let self, narrow != self.isNarrow else { return }
            self.isNarrow = narrow
            self.apply()
        }
    }

    private func apply() {
        let visible = visiblePanes
        for (pane, widget) in panes { gtk_widget_set_visible(widget, visible.contains(pane).gboolean) }
        gtk_widget_set_visible(reading, (visible.contains(.entries) || visible.contains(.article)).gboolean)
        onChange?()
    }
}
