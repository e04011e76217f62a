import CGtk

/// The event controller of `widget` called `name` (RefreshGtk names its own), which tests drive
/// by emitting its signals.
@MainActor
public func eventController(named name: String, on widget: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer {
    let controllers = gtk_widget_observe_controllers(widget)!
    defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
    for index in 0..<g_list_model_get_n_items(controllers) {
        let controller = OpaquePointer(g_list_model_get_item(controllers, index)!)
        g_object_unref(UnsafeMutableRawPointer(controller))
        if let found = gtk_event_controller_get_name(controller), String(cString: found) == name {
            return controller
        }
    }
    fatalError("no event controller named \(name)")
}
