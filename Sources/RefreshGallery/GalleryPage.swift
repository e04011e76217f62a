import CGtk
import RefreshCore
import RefreshGtk

/// One gallery page: a hint, and a list of fake entries with the variant's component, whose
/// loads finish after ``loadDelay`` seconds so that every state can be watched.
@MainActor
final class GalleryPage {
    let variant: GalleryVariant
    let component: RefreshComponent
    let list: FakeList
    let view: RefreshView
    /// The page's widget: the hint above the list.
    let widget: UnsafeMutablePointer<GtkWidget>
    /// How long a fake load takes, in seconds.
    var loadDelay = 1.5
    /// How many loads the component asked for.
    private(set) var loads = 0

    /// Entries a page starts with: enough to scroll, so footers start out of view.
    static let initialItems = 30

    init(variant: GalleryVariant, component: RefreshComponent) {
        self.variant = variant
        self.component = component
        list = FakeList(items: Self.initialItems, horizontal: variant.edge == .right)
        view = RefreshView(wrapping: cast(list.scrolled))
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        let hint = gtk_label_new(variant.hint)!
        gtk_label_set_wrap(cast(hint), 1)
        gtk_label_set_xalign(cast(hint), 0)
        gtk_widget_add_css_class(hint, "dim-label")
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
                     gtk_widget_set_margin_end] {
            side(hint, 10)
        }
        gtk_box_append(cast(widget), hint)
        gtk_box_append(cast(widget), view.widget)
        if let header = component as? RefreshHeader { header.lastUpdatedKey = "gallery/\(variant.rawValue)" }
        component.refreshingAction = { [weak self] in self?.load() }
        component.link(to: view)
    }

    private func load() {
        loads += 1
        let number = loads
        MainThread.after(loadDelay) { [weak self] in self?.finishLoad(number) }
    }

    private func finishLoad(_ number: Int) {
        if variant.edge == .top {
            list.prepend(5)
        } else {
            list.append(10)
        }
        switch (variant, component) {
        case let (.noMoreData, footer as AutoFooter) where number >= 2:
            footer.endRefreshingWithNoMoreData()
        case let (.hiddenFooter, footer as AutoFooter):
            footer.endRefreshing()
            footer.isHidden = true
        default:
            component.endRefreshing()
        }
    }
}
