import CGtk

/// Counts every GtkListView size_allocate by wrapping the class's vfunc: proof that a pull moves
/// the content without laying it out again (the tests assert it, `refresh-bench` reports it).
public enum ListViewLayoutCounter {
    nonisolated(unsafe) public static var count = 0
    nonisolated(unsafe) private static var original: (@convention(c) (UnsafeMutablePointer<GtkWidget>?, Int32, Int32, Int32) -> Void)?

    public static func install() {
        guard original == nil else { return }
        let widgetClass = g_type_class_ref(gtk_list_view_get_type()).assumingMemoryBound(to: GtkWidgetClass.self)
        original = widgetClass.pointee.size_allocate
        widgetClass.pointee.size_allocate = { widget, width, height, baseline in
            ListViewLayoutCounter.count += 1
            ListViewLayoutCounter.original?(widget, width, height, baseline)
        }
    }
}
