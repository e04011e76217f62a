import CAdw
import CGtk
import RefreshGtk

/// The feeds, the entries and the article in two nested leaflets (views/window.ui): three panes
/// side by side on a wide window; below about 1000 px the sidebar folds away and the list and the
/// article stay; below about 600 px one pane shows at a time, with back buttons.
@MainActor
final class PaneLeaflet {
    /// A pane, in reading order: Back leads from one to the one before.
    enum Pane: Int, CaseIterable {
        case feeds, entries, article
    }

    /// Below this width of the panes, in pixels, the sidebar folds away.
    static let sidebarFoldWidth: Int32 = 1000

    /// The widths the panes are given side by side, whatever the feeds' titles or the language:
    /// the sidebar and the list keep theirs and the article takes the rest.
    enum NaturalWidth {
        static let sidebar: Int32 = 280
        static let list: Int32 = 360
        static let article: Int32 = 360
    }

    /// The narrowest the list and the article may be: below their sum (about 600 px) they fold
    /// into one pane.
    static let paneMinimumWidth: Int32 = 300

    /// The sidebar's narrowest, wide or alone.
    static let sidebarMinimumWidth: Int32 = 220

    /// Folds the sidebar away; the list and article stay side by side until `inner` folds.
    let outer: OpaquePointer
    let inner: OpaquePointer
    private let panes: [Pane: UnsafeMutablePointer<GtkWidget>]
    /// The widget holding the list and the article, the outer leaflet's second pane.
    private let reading: UnsafeMutablePointer<GtkWidget>

    /// Called when the panes shown change: a fold, or another pane shown while folded.
    var onChange: (() -> Void)?
    /// Refresh and the main menu, kept in the header bar of the first pane shown.
    var windowButtons: WindowButtons? {
        didSet { moveWindowButtons() }
    }

    /// `frame` holds the outer leaflet and reports its width.
    init(frame: UnsafeMutablePointer<GtkWidget>, outer: OpaquePointer, inner: OpaquePointer,
         feeds: UnsafeMutablePointer<GtkWidget>, entries: UnsafeMutablePointer<GtkWidget>,
         article: UnsafeMutablePointer<GtkWidget>) {
        self.outer = outer
        self.inner = inner
        reading = UnsafeMutablePointer(inner)
        panes = [.feeds: feeds, .entries: entries, .article: article]
        Self.pinNaturalWidth(of: feeds, to: NaturalWidth.sidebar, minimum: Self.sidebarMinimumWidth)
        Self.pinNaturalWidth(of: entries, to: NaturalWidth.list, minimum: Self.paneMinimumWidth)
        Self.pinNaturalWidth(of: article, to: NaturalWidth.article, minimum: Self.paneMinimumWidth)
        // Unfolded, a leaflet shares the room left among the panes that expand: the list's rows
        // expand, so without this it took half of it, and the split moved with its content.
        for pane in [feeds, entries] { gtk_widget_set_hexpand(pane, 0) }
        // libadwaita 1.2 has no breakpoints, and a leaflet folding on its panes' natural widths
        // measures the whole sidebar on every change: the frame's width decides instead.
        adw_leaflet_set_can_unfold(outer, 0)
        g_object_set_data(cast(frame), Self.ownerKey, Unmanaged.passUnretained(self).toOpaque())
        gtk_widget_set_layout_manager(frame, gtk_custom_layout_new(nil, Self.measureFrame, Self.allocateFrame))
        apply()
        for leaflet in [outer, inner] {
            Signal.connectIgnoringArgument(cast(leaflet), "notify::folded") { [weak self] in
                self?.apply()
                self?.panesChanged()
            }
            Signal.connectIgnoringArgument(cast(leaflet), "notify::visible-child") { [weak self] in
                self?.followLeaflets()
                self?.panesChanged()
            }
        }
    }

    private func panesChanged() {
        moveWindowButtons()
        onChange?()
    }

    private func moveWindowButtons() {
        windowButtons?.follow { [weak self] in self?.visiblePanes ?? [] }
    }

    /// Whether the sidebar has folded away (two panes or one).
    var isSidebarFolded: Bool { adw_leaflet_get_folded(outer) != 0 }
    /// Whether the list and the article have folded into one pane.
    var isOnePane: Bool { isSidebarFolded && adw_leaflet_get_folded(inner) != 0 }

    /// The pane the reader is on: folded, the one shown (with the list and article side by side,
    /// the list or the article, whichever was last asked for); wide, the one last asked for.
    private(set) var page = Pane.entries

    /// The panes shown now, in reading order.
    var visiblePanes: [Pane] {
        guard isSidebarFolded else { return Pane.allCases }
        if page == .feeds { return [.feeds] }
        return adw_leaflet_get_folded(inner) != 0 ? [page] : [.entries, .article]
    }

    /// Shows `pane`: folded, it replaces the pane shown; wide, every pane shows already and the
    /// focus stays where it is.
    func show(_ pane: Pane) {
        page = pane
        apply()
    }

    /// Goes back to the pane before the one shown, where panes are folded; false when there is none.
    @discardableResult
    func back() -> Bool {
        if adw_leaflet_get_folded(inner) != 0, page == .article {
            show(.entries)
            return true
        }
        if isSidebarFolded, page != .feeds {
            show(.feeds)
            return true
        }
        return false
    }

    /// Shows ``page`` in the leaflets that are folded. An unfolded leaflet is left alone: changing
    /// its visible child would move the keyboard focus into that pane.
    private func apply() {
        if adw_leaflet_get_folded(inner) != 0, page != .feeds {
            adw_leaflet_set_visible_child(inner, panes[page])
        }
        if isSidebarFolded {
            adw_leaflet_set_visible_child(outer, page == .feeds ? panes[.feeds] : reading)
        }
    }

    /// Takes over a pane a leaflet showed by itself: a swipe, the mouse's back button.
    private func followLeaflets() {
        guard isSidebarFolded else { return }
        if adw_leaflet_get_visible_child(outer) != reading {
            page = .feeds
        } else if adw_leaflet_get_folded(inner) != 0 {
            page = adw_leaflet_get_visible_child(inner) == panes[.article] ? .article : .entries
        } else if page == .feeds {
            page = .entries
        }
    }

    /// Lets the sidebar unfold when the panes are at least ``sidebarFoldWidth`` wide. Not while GTK
    /// allocates: a leaflet that folds or unfolds asks for a new layout.
    private func widthChanged(_ width: Int32) {
        let canUnfold = width >= Self.sidebarFoldWidth
        guard canUnfold != (adw_leaflet_get_can_unfold(outer) != 0) else { return }
        // Held till then: the window may close first.
        let leaflet = ObjectRef(retaining: outer)
        MainThread.after(0) { adw_leaflet_set_can_unfold(leaflet.pointer, canUnfold.gboolean) }
    }

    private static let ownerKey = "feed-reader-pane-leaflet"

    private static let measureFrame: GtkCustomMeasureFunc = { widget, orientation, forSize, minimum, natural, minimumBaseline, naturalBaseline in
        var childMinimum: Int32 = 0, childNatural: Int32 = 0
        if let widget, let child = gtk_widget_get_first_child(widget) {
            gtk_widget_measure(child, orientation, forSize, &childMinimum, &childNatural, nil, nil)
        }
        minimum?.pointee = childMinimum
        natural?.pointee = childNatural
        minimumBaseline?.pointee = -1
        naturalBaseline?.pointee = -1
    }

    private static let allocateFrame: GtkCustomAllocateFunc = { widget, width, height, baseline in
        guard let widget, let child = gtk_widget_get_first_child(widget) else { return }
        gtk_widget_allocate(child, width, height, baseline, nil)
        guard let owner = g_object_get_data(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), ownerKey) else { return }
        onMainActor(passing: owner) { Unmanaged<PaneLeaflet>.fromOpaque($0).takeUnretainedValue().widthChanged(width) }
    }

    /// Gives `pane` the natural width `width` whatever it shows, so that where the leaflets fold
    /// does not depend on the feeds' titles or the language, and its narrowest `minimum`.
    private static func pinNaturalWidth(of pane: UnsafeMutablePointer<GtkWidget>, to width: Int32, minimum: Int32) {
        g_object_set_data(cast(pane), naturalWidthKey, UnsafeMutableRawPointer(bitPattern: Int(width)))
        if let child = gtk_widget_get_first_child(pane) { gtk_widget_set_size_request(child, minimum, -1) }
        gtk_widget_set_layout_manager(pane, gtk_custom_layout_new(nil, measurePane, allocatePane))
    }

    private static let naturalWidthKey = "feed-reader-natural-width"

    private static let measurePane: GtkCustomMeasureFunc = { widget, orientation, forSize, minimum, natural, minimumBaseline, naturalBaseline in
        var childMinimum: Int32 = 0, childNatural: Int32 = 0
        if let widget, let child = gtk_widget_get_first_child(widget) {
            gtk_widget_measure(child, orientation, forSize, &childMinimum, &childNatural, nil, nil)
            if orientation == GTK_ORIENTATION_HORIZONTAL {
                let pinned = Int32(Int(bitPattern: g_object_get_data(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self),
                                                                       naturalWidthKey)))
                childNatural = max(childMinimum, pinned)
            }
        }
        minimum?.pointee = childMinimum
        natural?.pointee = childNatural
        minimumBaseline?.pointee = -1
        naturalBaseline?.pointee = -1
    }

    private static let allocatePane: GtkCustomAllocateFunc = { widget, width, height, baseline in
        guard let widget, let child = gtk_widget_get_first_child(widget) else { return }
        gtk_widget_allocate(child, width, height, baseline, nil)
    }
}
