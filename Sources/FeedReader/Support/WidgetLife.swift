import CGtk
import RefreshGtk

/// Whether a widget still exists. Code that resumes after an await asks it before touching the
/// widget or anything inside it: the window may have been closed while it waited.
@MainActor
final class WidgetLife {
    /// False once the widget is destroyed.
    private(set) var isAlive = true

    /// Follows `widget` until it is destroyed.
    init(_ widget: UnsafeMutablePointer<GtkWidget>) {
        Signal.connect(cast(widget), "destroy") { [weak self] in self?.isAlive = false }
    }
}
