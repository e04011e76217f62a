import CGtk

/// Registers the `RefreshGtkView` GtkWidget subclass and routes its vfuncs to ``RefreshView``.
enum RefreshViewType {
    static let quark: GQuark = g_quark_from_static_string("refreshgtk-view")

    /// The GType, registered on first use.
    static let gtype: GType = registerWidgetSubclass("RefreshGtkView") { klass, _ in
        guard let klass else { return }
        let widgetClass = klass.assumingMemoryBound(to: GtkWidgetClass.self)
        widgetClass.pointee.measure = { widget, orientation, forSize, minimum, natural, minBaseline, natBaseline in
            guard let widget else { return }
            let view = RefreshViewType.view(of: widget)
            let size = onMainActor { view?.measure(orientation, forSize: forSize) ?? (minimum: 0, natural: 0) }
            minimum?.pointee = size.minimum
            natural?.pointee = size.natural
            minBaseline?.pointee = -1
            natBaseline?.pointee = -1
        }
        widgetClass.pointee.size_allocate = { widget, width, height, baseline in
            guard let widget else { return }
            let view = RefreshViewType.view(of: widget)
            onMainActor { view?.allocate(width: width, height: height, baseline: baseline) }
        }
        widgetClass.pointee.map = { widget in
            guard let widget else { return }
            RefreshViewType.parentWidgetClass.pointee.map?(widget)
            let view = RefreshViewType.view(of: widget)
            onMainActor { view?.didMap() }
        }
        widgetClass.pointee.unmap = { widget in
            guard let widget else { return }
            let view = RefreshViewType.view(of: widget)
            onMainActor { view?.willUnmap() }
            RefreshViewType.parentWidgetClass.pointee.unmap?(widget)
        }
        widgetClass.pointee.snapshot = { widget, snapshot in
            guard let widget, let snapshot else { return }
            let view = RefreshViewType.view(of: widget)
            onMainActor(passing: snapshot) { view?.snapshot(into: $0) }
        }
        widgetClass.pointee.compute_expand = { widget, hexpand, vexpand in
            guard let widget else { return }
            let view = RefreshViewType.view(of: widget)
            let expand = onMainActor { view?.contentExpands ?? (horizontal: false, vertical: false) }
            hexpand?.pointee = expand.horizontal.gboolean
            vexpand?.pointee = expand.vertical.gboolean
        }
        widgetClass.pointee.direction_changed = { widget, previous in
            guard let widget else { return }
            RefreshViewType.parentWidgetClass.pointee.direction_changed?(widget, previous)
            gtk_widget_queue_allocate(widget)
        }
        let objectClass = klass.assumingMemoryBound(to: GObjectClass.self)
        objectClass.pointee.dispose = { object in
            guard let object else { return }
            let view = RefreshViewType.view(of: UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self))
            onMainActor { view?.dispose() }
            RefreshViewType.parentWidgetClass.pointee.parent_class.dispose?(object)
        }
        gtk_widget_class_set_css_name(widgetClass, "refreshview")
    }

    /// GtkWidget's own class, for chaining up: referenced by every widget, so alive while any is.
    static var parentWidgetClass: UnsafeMutablePointer<GtkWidgetClass> {
        g_type_class_peek(gtk_widget_get_type()).assumingMemoryBound(to: GtkWidgetClass.self)
    }

    /// The Swift object behind a widget of this type: looked up before entering the main actor,
    /// so only the view, not the widget pointer, crosses into main-actor code.
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
