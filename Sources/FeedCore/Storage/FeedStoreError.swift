import Foundation

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
        }
    }
}
