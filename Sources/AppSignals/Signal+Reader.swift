import CGtk
import RefreshGtk

// The typed connections only the reader's own signals need (a window's close-request, WebKit's
// decide-policy and load-failed, key-pressed, drag and drop...), beside the ones RefreshGtk
// keeps for its components, through the same checked `Signal.connect(_:_:_:signature:trampoline:)`.

extension Signal {
    /// `gboolean (*)(GObject*, gpointer)`: a window's close-request.
    @discardableResult
    public static func connectReturningBool(_ instance: gpointer, _ name: String,
                                            _ handler: @escaping @MainActor () -> Bool) -> HandlerID {
        typealias Handler = @MainActor () -> Bool
        let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            let body: Handler = Signal.handler(data)
            return onMainActor { body() }.gboolean
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, gint, gpointer)`: a dialog's response.
    @discardableResult
    public static func connectInt(_ instance: gpointer, _ name: String,
                                  _ handler: @escaping @MainActor (Int32) -> Void) -> HandlerID {
        typealias Handler = @MainActor (Int32) -> Void
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(value) }
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.int], returns: .void),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, guint, guint, gpointer)`: a selection model's selection-changed.
    @discardableResult
    public static func connectUIntPair(_ instance: gpointer, _ name: String,
                                       _ handler: @escaping @MainActor (UInt32, UInt32) -> Void) -> HandlerID {
        typealias Handler = @MainActor (UInt32, UInt32) -> Void
        let trampoline: @convention(c) (gpointer?, guint, guint, gpointer?) -> Void = { _, first, second, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(first, second) }
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.uint, .uint], returns: .void),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, gboolean, gpointer)`: a network monitor's network-changed.
    @discardableResult
    public static func connectBool(_ instance: gpointer, _ name: String,
                                   _ handler: @escaping @MainActor (Bool) -> Void) -> HandlerID {
        typealias Handler = @MainActor (Bool) -> Void
        let trampoline: @convention(c) (gpointer?, gboolean, gpointer?) -> Void = { _, value, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(value != 0) }
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.boolean], returns: .void),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, T*, gpointer)` where the argument may be NULL: an action's activate
    /// with its parameter, a list box's row-selected.
    @discardableResult
    public static func connectObjectOrNil(_ instance: gpointer, _ name: String,
                                          _ handler: @escaping @MainActor (gpointer?) -> Void) -> HandlerID {
        typealias Handler = @MainActor (gpointer?) -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, object, data in
            let body: Handler = Signal.handler(data)
            onMainActor(passing: object, body)
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.pointer], returns: .void),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gint (*)(GObject*, T*, gpointer)`: an application's handle-local-options.
    @discardableResult
    public static func connectObjectReturningInt(_ instance: gpointer, _ name: String,
                                                 _ handler: @escaping @MainActor (gpointer) -> Int32) -> HandlerID {
        typealias Handler = @MainActor (gpointer) -> Int32
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gint = { _, object, data in
            guard let object else { return -1 }
            let body: Handler = Signal.handler(data)
            return onMainActor(passing: object, body)
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.pointer], returns: .int),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, T*, guint, gpointer)`, the argument an object and the number an
    /// enum or flags: a web view's decide-policy, with the decision and its type.
    @discardableResult
    public static func connectObjectUIntReturningBool(_ instance: gpointer, _ name: String,
                                                      _ handler: @escaping @MainActor (gpointer, UInt32) -> Bool) -> HandlerID {
        typealias Handler = @MainActor (gpointer, UInt32) -> Bool
        let trampoline: @convention(c) (gpointer?, gpointer?, guint, gpointer?) -> gboolean = { _, object, value, data in
            guard let object else { return 0 }
            let body: Handler = Signal.handler(data)
            return onMainActor(passing: object) { body($0, value) }.gboolean
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.pointer, .uint], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, guint, const char*, GError*, gpointer)`: a web view's load-failed,
    /// with the load event, the address and the error's message.
    @discardableResult
    public static func connectUIntStringErrorReturningBool(_ instance: gpointer, _ name: String,
                                                           _ handler: @escaping @MainActor (UInt32, String?, String?) -> Bool) -> HandlerID {
        typealias Handler = @MainActor (UInt32, String?, String?) -> Bool
        let trampoline: @convention(c) (gpointer?, guint, UnsafePointer<CChar>?, UnsafeMutablePointer<GError>?, gpointer?) -> gboolean = {
            _, value, text, error, data in
            let body: Handler = Signal.handler(data)
            let (string, message) = (text.map { String(cString: $0) }, error.map { String(cString: $0.pointee.message) })
            return onMainActor { body(value, string, message) }.gboolean
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.uint, .pointer, .pointer], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, guint, guint, GdkModifierType, gpointer)`: a key controller's
    /// key-pressed, with the key value, the hardware key code and the modifiers held.
    @discardableResult
    public static func connectKeyPressed(_ instance: gpointer, _ name: String,
                                         _ handler: @escaping @MainActor (UInt32, UInt32, GdkModifierType) -> Bool) -> HandlerID {
        typealias Handler = @MainActor (UInt32, UInt32, GdkModifierType) -> Bool
        let trampoline: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, keycode, state, data in
            let body: Handler = Signal.handler(data)
            return onMainActor { body(keyval, keycode, state) }.gboolean
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.uint, .uint, .uint], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, const GValue*, double, double, gpointer)`: a drop target's drop,
    /// with the value dropped and where.
    @discardableResult
    public static func connectDrop(_ instance: gpointer, _ name: String,
                                   _ handler: @escaping @MainActor (UnsafePointer<GValue>, Double, Double) -> Bool) -> HandlerID {
        typealias Handler = @MainActor (UnsafePointer<GValue>, Double, Double) -> Bool
        let trampoline: @convention(c) (gpointer?, UnsafePointer<GValue>?, Double, Double, gpointer?) -> gboolean = { _, value, x, y, data in
            guard let value else { return 0 }
            let body: Handler = Signal.handler(data)
            return onMainActor(passing: value) { body($0, x, y) }.gboolean
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.pointer, .double, .double], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `GObject* (*)(GObject*, double, double, gpointer)`: a drag source's prepare, returning the
    /// content dragged (a new reference) or nil to refuse the drag.
    @discardableResult
    public static func connectReturningObject(_ instance: gpointer, _ name: String,
                                              _ handler: @escaping @MainActor (Double, Double) -> gpointer?) -> HandlerID {
        typealias Handler = @MainActor (Double, Double) -> gpointer?
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> gpointer? = { _, x, y, data in
            let body: Handler = Signal.handler(data)
            // As an address: a pointer may not leave the main actor's closure.
            return UnsafeMutableRawPointer(bitPattern: onMainActor { UInt(bitPattern: body(x, y)) })
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.double, .double], returns: .pointer),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, T*, gpointer)`: a drop target's accept, with the drop offered.
    @discardableResult
    public static func connectObjectReturningBool(_ instance: gpointer, _ name: String,
                                                  _ handler: @escaping @MainActor (gpointer) -> Bool) -> HandlerID {
        typealias Handler = @MainActor (gpointer) -> Bool
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, object, data in
            guard let object else { return 0 }
            let body: Handler = Signal.handler(data)
            return onMainActor(passing: object, body).gboolean
        }
        return Signal.connect(instance, name, handler, signature: SignalSignature([.pointer], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }
}

extension Signal {
    /// `gboolean (*)(GtkWidget*, gint, gint, gboolean, GtkTooltip*, gpointer)`: a widget's
    /// query-tooltip, with the tooltip to fill; false lets the widget's parent give its own.
    @discardableResult
    public static func connectQueryTooltip(_ instance: gpointer, _ handler: @escaping @MainActor (OpaquePointer) -> Bool) -> HandlerID {
        typealias Handler = @MainActor (OpaquePointer) -> Bool
        let trampoline: @convention(c) (gpointer?, gint, gint, gboolean, OpaquePointer?, gpointer?) -> gboolean = { _, _, _, _, tooltip, data in
            guard let tooltip else { return 0 }
            let body: Handler = Signal.handler(data)
            return onMainActor(passing: tooltip, body).gboolean
        }
        return Signal.connect(instance, "query-tooltip", handler, signature: SignalSignature([.int, .int, .boolean, .pointer], returns: .boolean),
                              trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }
}
