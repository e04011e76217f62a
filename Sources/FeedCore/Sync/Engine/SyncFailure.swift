import Foundation

/// Why adding, syncing or removing an account failed, as the app words it in the user's language.
public enum SyncFailure: Error, Sendable, Hashable {
    /// The server, or reaching it, failed.
    case server(SyncError)
    /// The secret store could not keep or give the password (no Secret Service running, say).
    case secrets(SecretStoreError)
    /// The secret store has no password for the account (removed from the keyring by hand).
    case noPassword
    /// No service of this kind is known to this reader.
    case unknownService(SyncServiceKind)
    /// The service cannot do what was asked (Fever cannot subscribe).
    case unsupported
    /// This user on this server is an account already.
    case accountExists
    /// No account (or feed, or folder of an account) has the given id.
    case notFound
    /// The database refused the change: why, as a code with SQLite's words for details only.
    case storage(ErrorReason)
    /// The server's address holds a user name or password, which would be kept with it.
    case credentialsInAddress
    /// The server's address is plain http to another network, and unencrypted was not allowed.
    case insecureAddress
}

extension SyncFailure: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .server(error): "server: \(error)"
        case let .secrets(error): "secret store: \(error.code.rawValue) \(error.detail)"
        case .noPassword: "no password in the secret store"
        case let .unknownService(kind): "unknown service \(kind.rawValue)"
        case .unsupported: "not supported by the service"
        case .accountExists: "account exists already"
        case .notFound: "not found"
        case let .storage(reason): "storage: \(reason.technicalSummary)"
        case .credentialsInAddress: "the address holds a user name or password"
        case .insecureAddress: "the address sends the password unencrypted"
        }
    }
}

/// What one sync of an account did.
public struct SyncReport: Sendable, Hashable {
    /// Queued changes the server has now made.
    public var sentChanges = 0
    /// Subscriptions the server refused, dropped from the queue.
    public var refusedSubscriptions: [RefusedSubscription] = []
    public var newEntries = 0
    /// Stored entries whose read or starred state the server changed.
    public var changedStates = 0
    /// The new entries still unread once the sync is done, what a notification tells of.
    public var newUnreadEntries = 0
    /// How many feeds those are in.
    public var feedsWithNewUnreadEntries = 0

    public init() {}

    /// A subscription the server would not make, and the server's reason (in English, for details).
    public struct RefusedSubscription: Sendable, Hashable {
        public var url: String
        public var reason: String
    }
}
