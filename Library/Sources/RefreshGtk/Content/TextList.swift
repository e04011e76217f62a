import CGtk

/// A GtkListView of text rows over a GtkStringList, in a scrolled window ready for
/// ``RefreshView/init(wrapping:)``: the simplest content to pull on.
///
/// The list holds its model; the widgets belong to the widget tree they are put in.
@MainActor
public final class TextList {
    /// The GtkStringList whose strings the rows show.
    public var model: OpaquePointer { modelRef.pointer }
    /// The GtkListView.
    public let listView: UnsafeMutablePointer<GtkWidget>
    /// The GtkScrolledWindow around the list view.
    public let scrolledWindow: UnsafeMutablePointer<GtkWidget>
    private let modelRef: ObjectRef<OpaquePointer>

    /// Rows of `texts`, laid out along `orientation`. `makeRow` builds a row around the label
    /// its text goes in, and returns the row (by default the label alone).
    public init(_ texts: [String] = [], orientation: GtkOrientation = GTK_ORIENTATION_VERTICAL,
                makeRow: @escaping @MainActor (_ label: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> = { $0 }) {
        modelRef = ObjectRef(takingOwnership: gtk_string_list_new(nil)!)
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectObject(cast(factory), "setup") { item in
            let label = gtk_label_new(nil)!
            let row = makeRow(label)
            g_object_set_qdata(cast(row), TextList.labelQuark, label)
            gtk_list_item_set_child(cast(item), row)
        }
        Signal.connectObject(cast(factory), "bind") { item in
            guard let object = gtk_list_item_get_item(cast(item)), let row = gtk_list_item_get_child(cast(item)),
                  let label = g_object_get_qdata(cast(row), TextList.labelQuark) else { return }
            gtk_label_set_text(cast(label), gtk_string_object_get_string(cast(object)))
        }
        // The selection model takes a reference to the list model; the list view takes both.
        let selection = gtk_no_selection_new(cast(g_object_ref(cast(modelRef.pointer))))
        listView = gtk_list_view_new(cast(selection), factory)
        gtk_orientable_set_orientation(cast(listView), orientation)
        scrolledWindow = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(scrolledWindow), listView)
        insert(texts, at: 0)
    }

    /// The number of rows.
    public var count: Int { Int(g_list_model_get_n_items(cast(model))) }

    /// Inserts rows of `texts` before row `position` (``count`` appends them).
    public func insert(_ texts: [String], at position: Int) {
        guard !texts.isEmpty else { return }
        withCStringArray(texts) { gtk_string_list_splice(model, guint(position), 0, $0) }
    }

    /// Where a row keeps the label its text goes in.
    private static let labelQuark: GQuark = g_quark_from_static_string("refreshgtk-text-list-label")
}
