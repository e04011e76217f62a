import Foundation

extension FeedLibrary {
    /// Sets the user name and password a feed behind HTTP authentication is fetched with: the
    /// password goes to the Secret Service, only the user name to the store. A nil `user` forgets
    /// both. An empty password keeps the one stored for the same user.
    ///
    /// - Throws: `FeedSettingsError.invalidUserName`, `SecretStoreError` when the Secret Service
    ///   cannot keep the password (nothing changed then), `FeedStoreError.feedNotFound`.
    public func setCredentials(user: String?, password: String, forFeed feedID: Int64) async throws {
        guard let feed = try await store.feed(id: feedID) else { throw FeedStoreError.feedNotFound(id: feedID) }
        var settings = feed.settings
        let previous = settings.authUser
        settings.authUser = user
        try settings.validate()
        if let user, !password.isEmpty {
            try await secrets.save(password, for: .feed(feed.url, user: user))
        }
        try await store.setSettings(settings, forFeed: feedID)
        if let previous, previous != user {
            try? await secrets.remove(for: .feed(feed.url, user: previous))
        }
    }
}
