import CGtk

/// Registers the `RefreshGtkView` GtkWidget subclass and routes its vfuncs to ``RefreshView``.
enum RefreshViewType {
    static let quark: GQuark = g_quark_from_static_string("refreshgtk-view")

    nonisolated(unsafe) private static var parentDispose: (@convention(c) (UnsafeMutablePointer<GObject>?) -> Void)?

    /// The GType, registered on first use.
    static let gtype: GType = {
        var query = GTypeQuery()
        g_type_query(gtk_widget_get_type(), &query)
        var info = GTypeInfo()
        info.class_size = guint16(query.class_size)
        info.instance_size = guint16(query.instance_size)
        info.class_init = { klass, _ in
            guard let klass else { return }
            let widgetClass = klass.assumingMemoryBound(to: GtkWidgetClass.self)
            widgetClass.pointee.measure = { widget, orientation, forSize, minimum, natural, minBaseline, natBaseline in
                guard let instance = widget else { return }
                nonisolated(unsafe) let widget = instance
                let size = onMainActor {
                    RefreshViewType.view(of: widget)?.measure(orientation, forSize: forSize) ?? (minimum: 0, natural: 0)
                }
                minimum?.pointee = size.minimum
                natural?.pointee = size.natural
                minBaseline?.pointee = -1
                natBaseline?.pointee = -1
            }
            widgetClass.pointee.size_allocate = { widget, width, height, baseline in
                guard let instance = widget else { return }
                nonisolated(unsafe) let widget = instance
                onMainActor {
                    RefreshViewType.view(of: widget)?.allocate(width: width, height: height, baseline: baseline)
                }
            }
            widgetClass.pointee.map = { widget in
                guard let instance = widget else { return }
                RefreshViewType.parentWidgetClass.pointee.map?(instance)
                nonisolated(unsafe) let widget = instance
                onMainActor { RefreshViewType.view(of: widget)?.didMap() }
            }
            widgetClass.pointee.unmap = { widget in
                guard let instance = widget else { return }
                nonisolated(unsafe) let widget = instance
                onMainActor { RefreshViewType.view(of: widget)?.willUnmap() }
                RefreshViewType.parentWidgetClass.pointee.unmap?(widget)
            }
            widgetClass.pointee.snapshot = { widget, snapshot in
                guard let instance = widget, let snapshot else { return }
                nonisolated(unsafe) let widget = instance
                nonisolated(unsafe) let target = snapshot
                onMainActor { RefreshViewType.view(of: widget)?.snapshot(into: target) }
            }
            widgetClass.pointee.compute_expand = { widget, hexpand, vexpand in
                guard let instance = widget else { return }
                nonisolated(unsafe) let widget = instance
                let expand = onMainActor { RefreshViewType.view(of: widget)?.contentExpands ?? (horizontal: false, vertical: false) }
                hexpand?.pointee = expand.horizontal.gboolean
                vexpand?.pointee = expand.vertical.gboolean
            }
            widgetClass.pointee.direction_changed = { widget, previous in
                guard let widget else { return }
                RefreshViewType.parentWidgetClass.pointee.direction_changed?(widget, previous)
                gtk_widget_queue_allocate(widget)
            }
            let objectClass = klass.assumingMemoryBound(to: GObjectClass.self)
            RefreshViewType.parentDispose = objectClass.pointee.dispose
            objectClass.pointee.dispose = { object in
                guard let object else { return }
                nonisolated(unsafe) let widget = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
                onMainActor { RefreshViewType.view(of: widget)?.dispose() }
                RefreshViewType.parentDispose?(object)
            }
            gtk_widget_class_set_css_name(widgetClass, "refreshview")
        }
        return g_type_register_static(gtk_widget_get_type(), "RefreshGtkView", &info, GTypeFlags(0))
    }()

    /// GtkWidget's own class, for chaining up.
    nonisolated(unsafe) static let parentWidgetClass: UnsafeMutablePointer<GtkWidgetClass> = {
        g_type_class_ref(gtk_widget_get_type()).assumingMemoryBound(to: GtkWidgetClass.self)
    }()

    /// The Swift object behind a widget of this type.
    static func view(of widget: UnsafeMutablePointer<GtkWidget>) -> RefreshView? {
        guard let data = g_object_get_qdata(cast(widget), quark) else { return nil }
        return Unmanaged<RefreshView>.fromOpaque(data).takeUnretainedValue()
    }

    /// Makes the widget own `view`; the view is released when the widget is finalized.
    static func attach(_ view: RefreshView, to widget: UnsafeMutablePointer<GtkWidget>) {
        let data = Unmanaged.passRetained(view).toOpaque()
        g_object_set_qdata_full(cast(widget), quark, data) { data in
            guard let data else { return }
            Unmanaged<RefreshView>.fromOpaque(data).release()
        }
    }
}
