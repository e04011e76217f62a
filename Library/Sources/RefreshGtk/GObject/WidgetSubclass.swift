import CGtk

/// Registers the GtkWidget subclass `name`, which adds no fields of its own; `classInit` fills
/// in its class (virtual functions, CSS name). Call once, from a `static let`.
func registerWidgetSubclass(_ name: String, classInit: GClassInitFunc) -> GType {
    var query = GTypeQuery()
    g_type_query(gtk_widget_get_type(), &query)
    var info = GTypeInfo()
    info.class_size = guint16(query.class_size)
    info.instance_size = guint16(query.instance_size)
    info.class_init = classInit
    return g_type_register_static(gtk_widget_get_type(), name, &info, GTypeFlags(0))
}
