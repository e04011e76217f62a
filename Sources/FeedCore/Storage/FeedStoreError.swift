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
    /// This user on this server (and service) is an account already.
    case accountExists(user: String, server: URL)
    /// No account has this identifier.
    case accountNotFound(id: Int64)
    /// The folder is not one of the account's categories.
    case folderNotInAccount(id: Int64)
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
        case let .accountExists(user, server): "\(user) on \(server.absoluteString) is an account already"
        case let .accountNotFound(id): "No account with id \(id)"
        case let .folderNotInAccount(id): "Folder \(id) is not a category of the account"
        }
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
