import CGtk

/// A Swift closure boxed for a C signal connection; released by the connection's destroy-notify.
final class ClosureBox<Handler> {
    let handler: Handler
    init(_ handler: Handler) { self.handler = handler }
}

/// Connects Swift closures to GObject signals.
///
/// The closure is retained by the connection and released when it is disconnected or the
/// instance is finalized, so handlers live exactly as long as the connection.
public enum Signal {
    /// A handler ID for `g_signal_handler_disconnect`.
    public typealias HandlerID = gulong

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    /// Connects `trampoline`, which passes the values `signature` names, carrying `handler`.
    ///
    /// Debug builds stop here when the signal's own signature differs: C would otherwise read
    /// the wrong registers, or take an argument for the user data.
    private static func connect<Handler>(_ instance: gpointer, _ name: String, _ handler: Handler,
                                         signature: SignalSignature, trampoline: GCallback) -> HandlerID {
        #if DEBUG
        if let problem = mismatch(instance, name, signature) { preconditionFailure(problem) }
        #endif
        let box = Unmanaged.passRetained(ClosureBox(handler) as AnyObject).toOpaque()
        return g_signal_connect_data(instance, name, trampoline, box, release, GConnectFlags(0))
    }

    /// Why a trampoline passing `signature` cannot serve `name` on `instance`, or nil if it can.
    static func mismatch(_ instance: gpointer, _ name: String, _ signature: SignalSignature) -> String? {
        let type = G_TYPE_FROM_INSTANCE(instance)
        let typeName = String(cString: g_type_name(type))
        var id: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(name, type, &id, &detail, 0) != 0 else { return "\(typeName) has no signal \(name)" }
        var query = GSignalQuery()
        g_signal_query(id, &query)
        let parameters = (0..<Int(query.n_params)).map { query.param_types[$0] }
        if parameters.count == signature.parameters.count,
           zip(signature.parameters, parameters).allSatisfy({ $0.carries($1) }),
           signature.returns.carries(query.return_type) {
            return nil
        }
        let passed = parameters.map(SignalValue.name).joined(separator: ", ")
        return "\(typeName)::\(name) passes (\(passed)) -> \(SignalValue.name(query.return_type)); "
            + "the handler takes \(signature)"
    }

    private static func handler<Handler>(_ data: gpointer?) -> Handler {
        Unmanaged<ClosureBox<Handler>>.fromOpaque(data!).takeUnretainedValue().handler
    }

    /// `void (*)(GObject*, gpointer)`.
    @discardableResult
    public static func connect(_ instance: gpointer, _ name: String,
                        _ handler: @escaping @MainActor () -> Void) -> HandlerID {
        typealias Handler = @MainActor () -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body() }
        }
        return connect(instance, name, handler, signature: SignalSignature([], returns: .void),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, gpointer)`: a window's close-request.
    @discardableResult
    public static func connectReturningBool(_ instance: gpointer, _ name: String,
                                            _ handler: @escaping @MainActor () -> Bool) -> HandlerID {
        typealias Handler = @MainActor () -> Bool
        let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            let body: Handler = Signal.handler(data)
            return onMainActor { body() }.gboolean
        }
        return connect(instance, name, handler, signature: SignalSignature([], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, double, double, gpointer)`: drag-begin, drag-update, drag-end.
    @discardableResult
    public static func connect(_ instance: gpointer, _ name: String,
                        _ handler: @escaping @MainActor (Double, Double) -> Void) -> HandlerID {
        typealias Handler = @MainActor (Double, Double) -> Void
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, a, b, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(a, b) }
        }
        return connect(instance, name, handler, signature: SignalSignature([.double, .double], returns: .void),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, double, double, gpointer)`: scroll.
    @discardableResult
    public static func connect(_ instance: gpointer, _ name: String,
                        _ handler: @escaping @MainActor (Double, Double) -> Bool) -> HandlerID {
        typealias Handler = @MainActor (Double, Double) -> Bool
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, a, b, data in
            let body: Handler = Signal.handler(data)
            return onMainActor { body(a, b) }.gboolean
        }
        return connect(instance, name, handler, signature: SignalSignature([.double, .double], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, T*, gpointer)` where the argument is not needed: a gesture's cancel,
    /// an action's activate.
    @discardableResult
    public static func connectIgnoringArgument(_ instance: gpointer, _ name: String,
                                _ handler: @escaping @MainActor () -> Void) -> HandlerID {
        typealias Handler = @MainActor () -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body() }
        }
        return connect(instance, name, handler, signature: SignalSignature([.pointer], returns: .void),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, GObject*, gpointer)`: a list item factory's setup and bind.
    @discardableResult
    public static func connectObject(_ instance: gpointer, _ name: String,
                              _ handler: @escaping @MainActor (gpointer) -> Void) -> HandlerID {
        typealias Handler = @MainActor (gpointer) -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, object, data in
            guard let object else { return }
            let body: Handler = Signal.handler(data)
            onMainActor(passing: object, body)
        }
        return connect(instance, name, handler, signature: SignalSignature([.pointer], returns: .void),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, guint, gpointer)`: a list view's activate.
    @discardableResult
    public static func connectUInt(_ instance: gpointer, _ name: String,
                                   _ handler: @escaping @MainActor (UInt32) -> Void) -> HandlerID {
        typealias Handler = @MainActor (UInt32) -> Void
        let trampoline: @convention(c) (gpointer?, guint, gpointer?) -> Void = { _, value, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(value) }
        }
        return connect(instance, name, handler, signature: SignalSignature([.uint], returns: .void),
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
        return connect(instance, name, handler, signature: SignalSignature([.int], returns: .void),
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
        return connect(instance, name, handler, signature: SignalSignature([.boolean], returns: .void),
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
        return connect(instance, name, handler, signature: SignalSignature([.pointer], returns: .void),
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
        return connect(instance, name, handler, signature: SignalSignature([.pointer], returns: .int),
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
        return connect(instance, name, handler, signature: SignalSignature([.pointer, .uint], returns: .boolean),
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
        return connect(instance, name, handler, signature: SignalSignature([.uint, .pointer, .pointer], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, int, int, gpointer)`: a drawing area's resize.
    @discardableResult
    public static func connectSize(_ instance: gpointer, _ name: String,
                                   _ handler: @escaping @MainActor (Int32, Int32) -> Void) -> HandlerID {
        typealias Handler = @MainActor (Int32, Int32) -> Void
        let trampoline: @convention(c) (gpointer?, gint, gint, gpointer?) -> Void = { _, width, height, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(width, height) }
        }
        return connect(instance, name, handler, signature: SignalSignature([.int, .int], returns: .void),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// `void (*)(GObject*, gint, double, double, gpointer)`: a click gesture's pressed and released.
    @discardableResult
    public static func connectClickAt(_ instance: gpointer, _ name: String,
                                      _ handler: @escaping @MainActor (Double, Double) -> Void) -> HandlerID {
        typealias Handler = @MainActor (Double, Double) -> Void
        let trampoline: @convention(c) (gpointer?, gint, Double, Double, gpointer?) -> Void = { _, _, x, y, data in
            let body: Handler = Signal.handler(data)
            onMainActor { body(x, y) }
        }
        return connect(instance, name, handler, signature: SignalSignature([.int, .double, .double], returns: .void),
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
        return connect(instance, name, handler, signature: SignalSignature([.uint, .uint, .uint], returns: .boolean),
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
        return connect(instance, name, handler, signature: SignalSignature([.pointer, .double, .double], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }
}

extension Signal {
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
        return connect(instance, name, handler, signature: SignalSignature([.double, .double], returns: .pointer),
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
        return connect(instance, name, handler, signature: SignalSignature([.pointer], returns: .boolean),
                       trampoline: unsafeBitCast(trampoline, to: GCallback.self))
    }
}

/// How a trampoline passes one value of a signal, or its return value.
enum SignalValue: CustomStringConvertible {
    case void, boolean, int, uint, double, pointer

    /// Whether a signal value of GType `type` travels through C the way this kind does.
    func carries(_ type: GType) -> Bool {
        let fundamental = String(cString: g_type_name(g_type_fundamental(type & ~Self.staticScope)))
        switch self {
        case .void: return fundamental == "void"
        case .boolean: return fundamental == "gboolean"
        // An enum travels as an int; flags and an enum as an unsigned int.
        case .int: return ["gint", "GEnum"].contains(fundamental)
        case .uint: return ["guint", "GEnum", "GFlags"].contains(fundamental)
        case .double: return fundamental == "gdouble"
        case .pointer: return ["GInterface", "gchararray", "gpointer", "GBoxed", "GParam", "GObject", "GVariant"]
            .contains(fundamental)
        }
    }

    /// The name GLib gives the type of a signal's value.
    static func name(_ type: GType) -> String { String(cString: g_type_name(type & ~staticScope)) }

    /// `G_SIGNAL_TYPE_STATIC_SCOPE`, a flag bit some signals set on their value types.
    private static let staticScope = GType(1)

    var description: String {
        switch self {
        case .void: "void"
        case .boolean: "gboolean"
        case .int: "gint"
        case .uint: "guint"
        case .double: "gdouble"
        case .pointer: "gpointer"
        }
    }
}

/// The values a trampoline passes between the instance and the user data, and what it returns.
struct SignalSignature: CustomStringConvertible {
    let parameters: [SignalValue]
    let returns: SignalValue

    init(_ parameters: [SignalValue], returns: SignalValue) {
        self.parameters = parameters
        self.returns = returns
    }

    var description: String { "(\(parameters.map(\.description).joined(separator: ", "))) -> \(returns)" }
}
