import CGtk

/// Registers the `RefreshGtkIndicator` GtkWidget subclass, the widget an indicator draws into,
/// and routes its snapshot to ``IndicatorView``.
enum IndicatorWidgetType {
    static let quark: GQuark = g_quark_from_static_string("refreshgtk-indicator")

    /// The GType, registered on first use.
    static let gtype: GType = registerWidgetSubclass("RefreshGtkIndicator") { klass, _ in
        guard let klass else { return }
        let widgetClass = klass.assumingMemoryBound(to: GtkWidgetClass.self)
        widgetClass.pointee.snapshot = { widget, snapshot in
            guard let widget, let snapshot else { return }
            let view = IndicatorWidgetType.view(of: widget)
            onMainActor(passing: snapshot) { view?.snapshot(into: $0) }
        }
        gtk_widget_class_set_css_name(widgetClass, "refreshindicator")
    }

    /// The view drawing `widget`, while it lives: the view owns the widget, not the other way round.
    static func view(of widget: UnsafeMutablePointer<GtkWidget>) -> IndicatorView? {
        guard let data = g_object_get_qdata(cast(widget), quark) else { return nil }
        return Unmanaged<IndicatorView>.fromOpaque(data).takeUnretainedValue()
    }
}
