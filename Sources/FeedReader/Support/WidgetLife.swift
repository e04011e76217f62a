import CGtk
import RefreshGtk

/// Whether a widget still exists, and connections tied to it.
///
/// A closure given to a part (an `onFailure`, an `onSelect`) is made with ``tied(_:)``: it does
/// nothing once the widget is destroyed, as `g_signal_connect_object` ties a handler to an
/// object's life, so the closure itself needs no check. Code resuming after an await asks
/// ``isAlive`` before it touches the widget or anything inside it: the window may have been
/// closed while it waited.
@MainActor
final class WidgetLife {
    /// False once the widget is destroyed.
    private(set) var isAlive = true

    /// Follows `widget` until it is destroyed.
    init(_ widget: UnsafeMutablePointer<GtkWidget>) {
        Signal.connect(cast(widget), "destroy") { [weak self] in self?.isAlive = false }
    }

    /// `body`, run only while the widget exists.
    func tied(_ body: @escaping () -> Void) -> () -> Void {
        { [weak self] in if self?.isAlive == true { body() } }
    }

    /// `body`, run only while the widget exists.
    func tied<A>(_ body: @escaping (A) -> Void) -> (A) -> Void {
        { [weak self] a in if self?.isAlive == true { body(a) } }
    }

    /// `body`, run only while the widget exists, for a part that calls it on the main actor.
    func tied(onMain body: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
        { [weak self] in if self?.isAlive == true { body() } }
    }

    /// `body`, run only while the widget exists, for a part that calls it on the main actor.
    func tied<A>(onMain body: @escaping @MainActor (A) -> Void) -> @MainActor (A) -> Void {
        { [weak self] a in if self?.isAlive == true { body(a) } }
    }

    /// `body`, run only while the widget exists.
    func tied<A, B>(_ body: @escaping (A, B) -> Void) -> (A, B) -> Void {
        { [weak self] a, b in if self?.isAlive == true { body(a, b) } }
    }
}
