import FeedCore

extension SyncServiceKind {
    /// The service's product name, as people know it (not translated).
    public var displayName: String {
        switch self {
        case TinyTinyRSSService.kind: "Tiny Tiny RSS"
        case GoogleReaderService.kind: "Google Reader API"
        case FeverService.kind: "Fever API"
        default: rawValue
        }
    }
}

extension SyncFailure {
    /// Why it failed, in the user's language, for an account of `kind`.
    public func message(for kind: SyncServiceKind) -> String {
        switch self {
        case let .server(error): error.message(for: kind)
        case let .secrets(error): error.message
        case .noPassword: tr("The keyring holds no password for this account. Remove the account and add it again.")
        case let .unknownService(unknown):
            // TRANSLATORS: %@ is the service named on the command line.
            tr("Unknown service %@.").filling(unknown.rawValue) + " "
                // TRANSLATORS: %@ lists the services that can be named, such as "tt-rss".
                + tr("Known services: %@.").filling(phrase: SyncEngine.knownServices.map { $0.kind.rawValue }.joined(separator: ", "))
        case .unsupported: tr("The server cannot do this.")
        case .accountExists: ErrorReason(.accountExists).sentence
        case .notFound: ErrorReason(.accountNotFound).sentence
        case let .storage(reason): ErrorReason.changeFailure(reason)
        case .credentialsInAddress:
            tr("The address holds a user name or password. Give the address without them: the password is asked for on its own and kept in the keyring.")
        case .insecureAddress:
            tr("The address starts with http://, so the password would cross the network unencrypted. Use the server’s https:// address.")
        }
    }
}

extension SyncError {
    /// Why the server failed, in the user's language, for an account of `kind`.
    public func message(for kind: SyncServiceKind) -> String {
        var reason = reason
        reason.details[.service] = kind.rawValue
        reason.details[.name] = kind.displayName
        return reason.sentence
    }
}

extension SecretStoreError {
    /// Why the password could not be kept or read, in the user's language.
    public var message: String { reason.sentence }
}

extension SyncAccount {
    /// "user — server could not be synced." and why, in the user's language, as the window and
    /// the command line say it; the window gives the account's `name` as it names it everywhere.
    public func syncFailure(_ failure: SyncFailure, named name: String? = nil) -> String {
        // TRANSLATORS: %@ is the account: its user name and server address.
        tr("%@ could not be synced.").filling(name ?? displayName) + " " + failure.message(for: kind)
    }
}

extension SyncFailure {
    /// Whether the user must change something for the account to sync again (its password, the
    /// server's settings, the keyring), rather than wait and retry.
    public var needsUser: Bool {
        switch self {
        case let .server(error): [.wrongCredentials, .apiDisabled, .notThisKindOfServer, .tls, .moved].contains(error.code)
        case .secrets, .noPassword, .unknownService, .credentialsInAddress, .insecureAddress: true
        case .unsupported, .accountExists, .notFound, .storage: false
        }
    }
}
