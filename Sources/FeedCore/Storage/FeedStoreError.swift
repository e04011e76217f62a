import Foundation
import GRDB

/// Why a store operation was refused.
public enum FeedStoreError: Error, Sendable, Hashable {
    /// No feed has this identifier (it may have been removed meanwhile).
    case feedNotFound(id: Int64)
    /// A feed with this address is already in the list.
    case alreadySubscribed(URL)
    /// No entry has this identifier.
    case entryNotFound(id: Int64)
    /// Another folder has this name.
    case folderExists(String)
    /// A folder cannot be moved into itself or a folder below it.
    case folderInsideItself
    /// SQLite found the database file damaged; nothing more is written to it.
    case damaged(String)
    /// Another program or connection held the database longer than `FeedStore.busyTimeout`.
    case busy(String)
    /// The disk holding the database is full.
    case diskFull(String)
    /// The database file or its folder cannot be written to.
    case readOnly(String)
    /// This user on this server (and service) is an account already.
    case accountExists(user: String, server: URL)
    /// No account has this identifier.
    case accountNotFound(id: Int64)
    /// The folder is not one of the account's categories.
    case folderNotInAccount(id: Int64)
}

extension FeedStoreError {
    /// The refusal `error` is, when it is one of busy, full or read-only; nil for other errors.
    init?(refusal error: DatabaseError) {
        let reason = "\(error.resultCode): \(error.message ?? "")"
        switch error.resultCode.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy(reason)
        case .SQLITE_FULL: self = .diskFull(reason)
        case .SQLITE_READONLY: self = .readOnly(reason)
        default: return nil
        }
    }
}

extension FeedStoreError: CustomStringConvertible, LocalizedError {
    /// The error in words for the person using the app.
    public var description: String {
        switch self {
        case let .feedNotFound(id): "No feed with id \(id)"
        case let .alreadySubscribed(url): "Already subscribed to \(url.absoluteString)"
        case let .entryNotFound(id): "No entry with id \(id)"
        case let .folderExists(name): "A folder named \(name) exists already"
        case .folderInsideItself: "A folder cannot be moved into itself or a folder below it"
        case let .damaged(reason): "The database file is damaged (\(reason))"
        case let .busy(reason): "The database was busy for too long (\(reason))"
        case let .diskFull(reason): "The disk is full (\(reason))"
        case let .readOnly(reason): "The database cannot be written to (\(reason))"
        case let .accountExists(user, server): "\(user) on \(server.absoluteString) is an account already"
        case let .accountNotFound(id): "No account with id \(id)"
        case let .folderNotInAccount(id): "Folder \(id) is not a category of the account"
        }
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension FeedStoreError: ReasonedError {
    /// The error as a code and the values its sentence needs.
    public var reason: ErrorReason {
        switch self {
        case let .feedNotFound(id): ErrorReason(.feedNotFound, [.id: String(id)])
        case let .alreadySubscribed(url): ErrorReason(.alreadySubscribed, [.url: url.absoluteString])
        case let .entryNotFound(id): ErrorReason(.entryNotFound, [.id: String(id)])
        case let .folderExists(name): ErrorReason(.folderExists, [.name: name])
        case .folderInsideItself: ErrorReason(.folderInsideItself)
        case let .damaged(reason): ErrorReason(.databaseDamaged, [.technical: reason])
        case let .busy(reason): ErrorReason(.databaseBusy, [.technical: reason])
        case let .diskFull(reason): ErrorReason(.diskFull, [.technical: reason])
        case let .readOnly(reason): ErrorReason(.databaseReadOnly, [.technical: reason])
        case let .accountExists(user, server): ErrorReason(.accountExists, [.name: user, .url: server.absoluteString])
        case let .accountNotFound(id): ErrorReason(.accountNotFound, [.id: String(id)])
        case let .folderNotInAccount(id): ErrorReason(.folderNotInAccount, [.id: String(id)])
        }
    }
}
