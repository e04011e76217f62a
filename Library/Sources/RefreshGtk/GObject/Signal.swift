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

    /// Connects `trampoline`, which passes the values `signature` names, carrying `handler`,
    /// which the trampoline gets back with ``handler(_:)`` from its user data: the one way in,
    /// through which an app adds the typed connections its own signals need in an extension.
    ///
    /// Debug builds stop here when the signal's own signature differs: C would otherwise read
    /// the wrong registers, or take an argument for the user data.
    public static func connect<Handler>(_ instance: gpointer, _ name: String, _ handler: Handler,
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

    /// The handler a connection carries, from the user data its trampoline is passed.
    public static func handler<Handler>(_ data: gpointer?) -> Handler {
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

}

extension Signal {

}

/// How a trampoline passes one value of a signal, or its return value.
public enum SignalValue: Sendable, CustomStringConvertible {
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

    public var description: String {
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
public struct SignalSignature: Sendable, CustomStringConvertible {
    let parameters: [SignalValue]
    let returns: SignalValue

    public init(_ parameters: [SignalValue], returns: SignalValue) {
        self.parameters = parameters
        self.returns = returns
    }

    public var description: String { "(\(parameters.map(\.description).joined(separator: ", "))) -> \(returns)" }
}
