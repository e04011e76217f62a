// Implementation-only: libsecret's header brings GLib's with it, and a client that loaded this
// module first saw GLib's declarations as CSecret's, hidden from its own `import CGtk` (the
// app's G_OPTION_ARG_* went missing). No CSecret type appears in FeedCore's interface or layout.
@_implementationOnly import CSecret
import Foundation

/// Passwords and session tokens kept by the Secret Service (GNOME Keyring, KWallet) through
/// libsecret, under the reader's own versioned schemas, one for each. When no Secret Service runs, every call fails with
/// `.keyringUnavailable`: there is no fallback to a file.
public struct LibsecretStore: SecretStore {
    public init() {}

    public func save(_ secret: String, for key: SecretKey) async throws(SecretStoreError) {
        // The label is what keyring managers list; the account's address and user identify it.
        let label = switch key.item {
        case .password: "Feed Reader: \(key.user) on \(key.server.absoluteString)"
        case .sessionToken: "Feed Reader session: \(key.user) on \(key.server.absoluteString)"
        }
        try await Self.call { error in
            _ = csecret_store(Self.schema(key.item), label, key.kind.rawValue, key.server.absoluteString, key.user, secret, &error)
        }
    }

    public func secret(for key: SecretKey) async throws(SecretStoreError) -> String? {
        try await Self.call { error in
            guard let found = csecret_lookup(Self.schema(key.item), key.kind.rawValue, key.server.absoluteString, key.user, &error) else { return nil }
            defer { secret_password_free(found) }
            return String(cString: found)
        }
    }

    public func remove(for key: SecretKey) async throws(SecretStoreError) {
        try await Self.call { error in
            _ = csecret_clear(Self.schema(key.item), key.kind.rawValue, key.server.absoluteString, key.user, &error)
            // A token got with the password is the account's too: it goes with it.
            if key.item == .password, error == nil {
                _ = csecret_clear(csecret_session_schema(), key.kind.rawValue, key.server.absoluteString, key.user, &error)
            }
        }
    }

    private static func schema(_ item: SecretKey.Item) -> UnsafePointer<SecretSchema> {
        switch item {
        case .password: csecret_account_schema()
        case .sessionToken: csecret_session_schema()
        }
    }

    /// Runs a blocking libsecret call on a thread of its own (it waits for D-Bus, and maybe for a
    /// prompt), turning the GError it sets into a `SecretStoreError`.
    private static func call<T: Sendable>(
        _ body: @escaping @Sendable (inout UnsafeMutablePointer<GError>?) -> T
    ) async throws(SecretStoreError) -> T {
        let result: Result<T, SecretStoreError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var error: UnsafeMutablePointer<GError>?
                let value = body(&error)
                if let error {
                    defer { g_error_free(error) }
                    continuation.resume(returning: .failure(Self.failure(error.pointee)))
                } else {
                    continuation.resume(returning: .success(value))
                }
            }
        }
        return try result.get()
    }

    private static func failure(_ error: GError) -> SecretStoreError {
        let message = String(cString: error.message)
        if error.domain == secret_error_get_quark(), error.code == SECRET_ERROR_IS_LOCKED.rawValue {
            return SecretStoreError(.keyringLocked, message)
        }
        if error.domain == g_io_error_quark(), error.code == G_IO_ERROR_CANCELLED.rawValue {
            return SecretStoreError(.keyringLocked, message)
        }
        // No session bus to connect to (no address and nothing to autolaunch), or no Secret Service on it.
        let unavailableOnBus: [GDBusError] = [G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_SPAWN_EXEC_FAILED,
                                              G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND, G_DBUS_ERROR_SPAWN_SERVICE_INVALID,
                                              G_DBUS_ERROR_SPAWN_CHILD_EXITED, G_DBUS_ERROR_SPAWN_FAILED, G_DBUS_ERROR_NOT_SUPPORTED,
                                              G_DBUS_ERROR_FILE_NOT_FOUND, G_DBUS_ERROR_NO_SERVER, G_DBUS_ERROR_NO_REPLY]
        if error.domain == g_dbus_error_quark(), unavailableOnBus.map({ Int32($0.rawValue) }).contains(error.code) {
            return SecretStoreError(.keyringUnavailable, message)
        }
        if error.domain == g_io_error_quark() || error.domain == g_spawn_error_quark() {
            return SecretStoreError(.keyringUnavailable, message)
        }
        return SecretStoreError(.keyringFailed, message)
    }
}
