import GRDB

extension FeedStore {
    /// Reads every page of the database's tables and indexes (`DatabaseFileCheck`), the part a
    /// start leaves unread so that the window shows at once at any size. Damage found counts as
    /// damage SQLite meets in use: writes are refused from then on and the next opening repairs
    /// the file (`openHealing`). Returns why the database is damaged, or nil when it is whole or
    /// in memory.
    public func checkPages() async -> String? {
        guard subscriptionsCopyURL != nil, damageFound == nil else { return damageFound }
        let path = database.path
        // On the writer's connection, so that no write and no checkpoint of this store changes
        // the file or its log while the check reads them itself: in a read transaction alone,
        // writes going on made a whole file look damaged (a page read from the file under a
        // parent read from a newer commit in the log; StoreHealingTests).
        let problem = try? await database.writeWithoutTransaction { _ in
            DatabaseFileCheck.check(path: path, extent: .whole)
        }
        if let problem = problem ?? nil { recordDamage(problem.description) }
        return damageFound
    }
}
