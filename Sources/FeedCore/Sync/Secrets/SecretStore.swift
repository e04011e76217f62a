import Foundation

/// Which account a password belongs to: the service, the server and the user name, as the
/// Secret Service shows them in the keyring (Seahorse, KWallet).
public struct SecretKey: Sendable, Hashable {
    public var kind: SyncServiceKind
    public var server: URL
    public var user: String

    public init(kind: SyncServiceKind, server: URL, user: String) {
        self.kind = kind
        self.server = server
        self.user = user
    }
}

/// Why the secret store could not do what was asked.
public struct SecretStoreError: Error, Sendable, Hashable {
    public enum Code: String, Sendable, Hashable {
        /// No Secret Service runs on the session bus (no GNOME Keyring, no KWallet), or there is no session bus.
        case unavailable
        /// The keyring is locked and was not unlocked, or the person dismissed the prompt.
        case locked
        /// The Secret Service answered with an error.
        case failed
    }

    public var code: Code
    /// What the Secret Service said, for details and logs.
    public var detail: String

    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }
}

/// Where accounts' passwords are kept: never in a file or the database.
public protocol SecretStore: Sendable {
    /// Saves (or replaces) the password of `key`.
    func save(_ secret: String, for key: SecretKey) async throws(SecretStoreError)
    /// The password of `key`, or nil when none is stored.
    func secret(for key: SecretKey) async throws(SecretStoreError) -> String?
    /// Forgets the password of `key`; nothing happens when none is stored.
    func remove(for key: SecretKey) async throws(SecretStoreError)
}
