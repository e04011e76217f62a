import Foundation

/// Which account a secret belongs to, and which of its secrets it is: the service, the server
/// and the user name, as the Secret Service shows them in the keyring (Seahorse, KWallet).
public struct SecretKey: Sendable, Hashable {
    /// What is kept for an account.
    public enum Item: Sendable, Hashable {
        /// The password the person typed.
        case password
        /// A session token the server gave in exchange for the password, which spares logging in
        /// again in the next process.
        case sessionToken
    }

    public var kind: SyncServiceKind
    public var server: URL
    public var user: String
    public var item: Item

    public init(kind: SyncServiceKind, server: URL, user: String, item: Item = .password) {
        self.kind = kind
        self.server = server
        self.user = user
        self.item = item
    }

    /// The same account's session token.
    public var sessionToken: SecretKey {
        var key = self
        key.item = .sessionToken
        return key
    }
}

/// Why the secret store could not do what was asked.
public struct SecretStoreError: Error, Sendable, Hashable {
    /// Which problem it is, from the one list of codes (the `secrets.` ones).
    public var code: ErrorCode
    /// What the Secret Service said, for details and logs.
    public var detail: String

    public init(_ code: ErrorCode, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }
}

extension SecretStoreError: ReasonedError {
    /// The code, with what the Secret Service said as the technical detail.
    public var reason: ErrorReason { ErrorReason(code, detail.isEmpty ? [:] : [.technical: detail]) }
}

/// Where accounts' passwords and session tokens are kept: never in a file or the database.
public protocol SecretStore: Sendable {
    /// Saves (or replaces) the secret of `key`.
    func save(_ secret: String, for key: SecretKey) async throws(SecretStoreError)
    /// The secret of `key`, or nil when none is stored.
    func secret(for key: SecretKey) async throws(SecretStoreError) -> String?
    /// Forgets the secret of `key`, and with a password the account's session token too;
    /// nothing happens when none is stored.
    func remove(for key: SecretKey) async throws(SecretStoreError)
}
