import Foundation
import GRDB
import Synchronization

/// A stored rule with what went wrong when it was last used.
public struct StoredRule: Sendable, Hashable {
    public var rule: Rule
    /// Why the rule gave up on some entry (a regular expression needing more work than allowed), or nil.
    public var problem: ErrorReason?
}

/// What applying rules to stored entries changed.
public struct RuleApplication: Sendable, Hashable {
    /// The entries examined.
    public var examined = 0
    /// The entries some rule matched.
    public var matched = 0
    /// The entries a rule hid, of those examined.
    var hidden: Set<Int64> = []
    /// The entries a rule said to announce and none hid, of those examined.
    var announced: Set<Int64> = []

    public init(examined: Int = 0, matched: Int = 0) {
        self.examined = examined
        self.matched = matched
    }
}

extension FeedStore {
    /// The rules, in the order they are listed and applied.
    public func rules() async throws -> [StoredRule] {
        try await reading { db in try FeedStore.storedRules(in: db) }
    }

    /// Stores `rule` last in the list, once its patterns are checked, and returns it with its id.
    /// It applies to the entries that arrive from now on; `applyRules(ids:)` applies it to those stored.
    ///
    /// - Throws: `RuleError` when a pattern is invalid or runs away; nothing is stored then.
    @discardableResult
    public func addRule(_ rule: Rule) async throws -> Rule {
        try rule.validate()
        return try await writing { db in
            let position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM rules") ?? 0
            var stored = rule
            stored.id = nil
            FeedStore.countRuleWrite()
            try db.execute(sql: "INSERT INTO rules (position, definition) VALUES (?, ?)",
                           arguments: [position, try FeedStore.definition(of: stored)])
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    /// Replaces a stored rule's conditions, actions, name and state, keeping its place. The
    /// entries it hid are shown again, as its new form may no longer hide them (and a disabled
    /// rule hides nothing); `applyRules(ids:)` hides what the new form does.
    public func updateRule(_ rule: Rule) async throws {
        guard let id = rule.id else { throw RuleError.notFound(id: 0) }
        try rule.validate()
        try await writing { db in
            FeedStore.countRuleWrite()
            try db.execute(sql: "UPDATE rules SET definition = ?, problemCode = NULL WHERE id = ?",
                           arguments: [try FeedStore.definition(of: rule), id])
            guard db.changesCount > 0 else { throw RuleError.notFound(id: id) }
            try db.execute(sql: "UPDATE entries SET hiddenByRule = NULL WHERE hiddenByRule = ?", arguments: [id])
        }
    }

    /// Removes a rule; the entries it hid are shown again. What it marked read or starred stays so.
    public func removeRule(id: Int64) async throws {
        try await writing { db in
            FeedStore.countRuleWrite()
            try db.execute(sql: "DELETE FROM rules WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { throw RuleError.notFound(id: id) }
            try db.execute(sql: "UPDATE entries SET hiddenByRule = NULL WHERE hiddenByRule = ?", arguments: [id])
        }
    }

    /// Moves a rule to `position` in the list (0 first), the others keeping their order.
    public func moveRule(id: Int64, to position: Int) async throws {
        try await writing { db in
            var ids = try Int64.fetchAll(db, sql: "SELECT id FROM rules ORDER BY position, id")
            guard let index = ids.firstIndex(of: id) else { throw RuleError.notFound(id: id) }
            ids.remove(at: index)
            ids.insert(id, at: min(max(position, 0), ids.count))
            FeedStore.countRuleWrite()
            for (place, ruleID) in ids.enumerated() {
                try db.execute(sql: "UPDATE rules SET position = ? WHERE id = ?", arguments: [place, ruleID])
            }
        }
    }

    /// How many stored entries `rule` matches, whether or not it is stored or enabled: what a
    /// rule being edited would catch.
    public func matchCount(of rule: Rule) async throws -> Int {
        var probe = rule
        probe.isEnabled = true
        let book = try RuleBook([probe])
        return try await reading { db in
            var count = 0
            let scratch = RuleBook.Scratch(book)
            try FeedStore.forEachSubject(after: nil, reading: book.fields, in: db) { _, subject, _ in
                book.load(subject, into: scratch)
                if book.outcome(ofRuleAt: 0, scratch: scratch) == .match { count += 1 }
            }
            return count
        }
    }

    /// Applies the enabled rules among `ids` (all enabled ones when nil) to every stored entry, a
    /// slice of entries a transaction, reporting the entries examined so far to `progress`.
    @discardableResult
    public func applyRules(ids: Set<Int64>? = nil, progress: @Sendable (RuleApplication) -> Void = { _ in }) async throws -> RuleApplication {
        var application = RuleApplication()
        var after: Int64 = 0
        while true {
            let start = after
            let (slice, last) = try await writing { db -> (RuleApplication, Int64?) in
                // Compiled once for the whole run: the definitions are read again each slice, so
                // a rule changed or removed meanwhile is not applied in its old form.
                let book = try FeedStore.compiledRules(in: db).restricted(to: ids)
                guard !book.isEmpty else { return (RuleApplication(), nil) }
                return try FeedStore.apply(book, after: start, limit: FeedStore.ruleSliceSize, in: db)
            }
            guard let last else { return application }
            application.examined += slice.examined
            application.matched += slice.matched
            progress(application)
            guard slice.examined == FeedStore.ruleSliceSize else { return application }
            after = last
        }
    }

    /// How many entries one transaction of `applyRules` examines: small enough that a refresh
    /// waiting for the write lock waits a fraction of a second.
    static let ruleSliceSize = 2_000

    /// Runs `store`, which stores fetched entries in the caller's transaction, judging each fetch's
    /// entries by the `RuleArrivals` it is given before inserting them, so that an entry a rule
    /// hides, marks read or stars is inserted so; then does the rest of what the rules said of the
    /// entries it added (labels, queued marks, rules that gave up), saying which of them the rules
    /// hid or said to announce. Hiding or marking an entry once inserted rewrote its wide row,
    /// which cost a refresh more than matching every entry it fetched. Without an enabled rule it
    /// costs one query, and `store` is given no arrivals to judge by.
    static func applyingRulesSaying<T>(in db: Database, _ store: (RuleArrivals?) throws -> T) throws -> (stored: T, rules: RuleApplication) {
        let book = try compiledRules(in: db)
        guard !book.isEmpty else { return (try store(nil), RuleApplication()) }
        let arrivals = RuleArrivals(book)
        let stored = try store(arrivals)
        guard arrivals.examined > 0 else { return (stored, RuleApplication()) }
        // The marks an entry had before the rules: one this transaction added had none.
        let new = Marks(isRead: false, isStarred: false)
        var application = try act(on: arrivals.judged.map { ($0.id, new, $0.verdict) }, markedAtInsert: true, in: db)
        application.examined = arrivals.examined
        return (stored, application)
    }

    /// Runs `store`, which stores a sync's page of `articles` for the account in the caller's
    /// transaction, and applies the enabled rules to the entries it added, as
    /// `applyingRulesSaying(in:_:)` does. The rules match the articles as fetched, before they are
    /// stored: an entry's title, link, author and content are its article's, and reading each
    /// page back from the store cost a sync with rules more than matching it. Only the entries of
    /// the articles some rule matched are looked up afterwards; most pages have none.
    static func applyingRules(to articles: [RemoteArticle], accountID: Int64, in db: Database, _ store: () throws -> Int) throws -> Int {
        let book = try compiledRules(in: db)
        guard !book.isEmpty else { return try store() }
        // Asked once a page, not once an article: each is a set built and hashed.
        let readsLink = book.fields.contains(.link), readsPlace = !book.fields.isDisjoint(with: [.feed, .folder, .account])
        var places: [RemoteID: Place] = [:]
        let subjects = try articles.map { article in
            var subject = RuleSubject(title: article.title, content: article.content, author: article.author,
                                      link: readsLink ? article.link?.absoluteString : nil)
            if readsPlace {
                // Asked once a feed of the page, and only when a rule reads it.
                let known = try places[article.feedID] ?? place(ofFeed: article.feedID, accountID: accountID, in: db)
                places[article.feedID] = known
                known.put(into: &subject)
            }
            return subject
        }
        let verdicts = book.verdicts(for: subjects)
        // Most pages match nothing: no entry to look up, and no statement prepared for it (the
        // sync's schema changes empty the statement cache every page).
        guard verdicts.contains(where: { !$0.isEmpty }) else { return try store() }
        let previousMaximum = try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(id), 0) FROM entries")) ?? 0
        let stored = try store()
        // An article stored before, or of a feed not here, added no entry: the rules skip it.
        let entry = try db.cachedStatement(sql: """
            SELECT entries.id, \(FeedStore.isReadColumn), entries.isStarred FROM entries JOIN feeds ON feeds.id = entries.feedId
            WHERE feeds.accountId = ? AND feeds.remoteId = ? AND entries.entryId = ? AND entries.id > ?
            """)
        var matched: [(id: Int64, marks: Marks, verdict: RuleBook.Verdict)] = []
        var matchedIDs = Set<Int64>()
        for (article, verdict) in zip(articles, verdicts) where !verdict.isEmpty {
            // An article twice in a page is one entry.
            guard let row = try Row.fetchOne(entry, arguments: [accountID, article.feedID, article.id, previousMaximum]),
                  matchedIDs.insert(row[0]).inserted else { continue }
            matched.append((row[0], Marks(isRead: row[1], isStarred: row[2]), verdict))
        }
        // In the entries' order, as reading them back took them.
        matched.sort { $0.id < $1.id }
        _ = try act(on: matched, in: db)
        return stored
    }

    /// What rules read of an entry's feed: the feed's, its folder's and its account's names.
    fileprivate struct Place {
        var feedTitle: String?, feedURL: String?, folder: String?, accountServer: String?, accountUser: String?

        init(_ row: Row?) {
            feedTitle = row?[0]
            feedURL = row?[1]
            folder = row?[2]
            accountServer = row?[3]
            accountUser = row?[4]
        }

        func put(into subject: inout RuleSubject) {
            (subject.feedTitle, subject.feedURL, subject.folder) = (feedTitle, feedURL, folder)
            (subject.accountServer, subject.accountUser) = (accountServer, accountUser)
        }
    }

    /// The columns of `Place`, of a query joining `feeds` and `accounts`.
    private static let placeColumns = "feeds.title, feeds.url, (SELECT name FROM folders WHERE folders.id = feeds.folderId), accounts.server, accounts.user"

    /// The place of an account's feed, by its server's id for it.
    private static func place(ofFeed feedID: RemoteID, accountID: Int64, in db: Database) throws -> Place {
        try Place(Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(placeColumns) FROM feeds JOIN accounts ON accounts.id = feeds.accountId WHERE feeds.accountId = ? AND feeds.remoteId = ?
            """), arguments: [accountID, feedID]))
    }

    /// The place of a feed, of an account or not.
    fileprivate static func place(ofFeedWithID feedID: Int64, in db: Database) throws -> Place {
        try Place(Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(placeColumns) FROM feeds LEFT JOIN accounts ON accounts.id = feeds.accountId WHERE feeds.id = ?
            """), arguments: [feedID]))
    }

    /// Applies `book` to the entries after `after` (at most `limit` of them), hiding, marking,
    /// starring and labelling what matches, synced entries through their servers' queue; returns what it did
    /// and the last entry examined, or nil when no entry was left.
    private static func apply(_ book: RuleBook, after: Int64, limit: Int, in db: Database) throws -> (RuleApplication, Int64?) {
        // Read first, then matched on every core: SQLite hands out rows one at a time.
        var entries: [(id: Int64, marks: Marks)] = [], subjects: [RuleSubject] = []
        entries.reserveCapacity(limit)
        subjects.reserveCapacity(limit)
        try forEachSubject(after: after, limit: limit, reading: book.fields, in: db) { id, subject, marks in
            entries.append((id, marks))
            subjects.append(subject)
        }
        let verdicts = book.verdicts(for: subjects)
        var application = try act(on: zip(entries, verdicts).map { ($0.id, $0.marks, $1) }, in: db)
        application.examined = entries.count
        return (application, entries.last?.id)
    }

    /// Does what `verdicts` say to their entries, in the entries' order: hides, marks, stars and
    /// labels, synced entries through their servers' queue, and notes the rules that gave up.
    /// Returns the entries matched, hidden and announced.
    /// With `markedAtInsert`, the entries were inserted hidden, read and starred as their verdicts
    /// say (`RuleArrivals.verdicts(on:ofFeed:in:)`), and only their servers are told.
    private static func act(on verdicts: [(id: Int64, marks: Marks, verdict: RuleBook.Verdict)], markedAtInsert: Bool = false,
                            in db: Database) throws -> RuleApplication {
        var application = RuleApplication()
        var hidden: [Int64: [Int64]] = [:]
        var read: [Int64] = [], starred: [Int64] = []
        var labelled: [String: [Int64]] = [:]
        var tooComplex = Set<Int64>()
        for (id, marks, verdict) in verdicts {
            tooComplex.formUnion(verdict.tooComplex)
            guard !verdict.actions.isEmpty || !verdict.labels.isEmpty else { continue }
            application.matched += 1
            if let rule = verdict.hiddenBy {
                hidden[rule, default: []].append(id)
                application.hidden.insert(id)
            } else if verdict.actions.contains(.notify) {
                application.announced.insert(id)
            }
            if verdict.actions.contains(.markRead), !marks.isRead { read.append(id) }
            if verdict.actions.contains(.star), !marks.isStarred { starred.append(id) }
            for label in verdict.labels { labelled[label, default: []].append(id) }
        }
        if !markedAtInsert {
            for (rule, ids) in hidden {
                try hide(ids, byRule: rule, in: db)
            }
        }
        // Most pages of a sync have nothing to mark or queue: no query for them.
        if !read.isEmpty {
            let markedRead = markedAtInsert ? read : try markRead(read, db: db)
            if !markedRead.isEmpty { try queueArticleState(.read, entryIDs: markedRead, db: db) }
        }
        if !starred.isEmpty {
            if !markedAtInsert {
                try db.cachedStatement(sql: "UPDATE entries SET isStarred = 1 WHERE id IN \(idsIn())").execute(arguments: [idList(starred)])
            }
            try queueArticleState(.star, entryIDs: starred, db: db)
        }
        // As a person labelling them would: only the entries without it change, a synced one's server is told.
        for (label, ids) in labelled.sorted(by: { $0.key < $1.key }) {
            try setLabel(label, on: ids, true, db: db)
        }
        for rule in tooComplex {
            try db.execute(sql: "UPDATE rules SET problemCode = ? WHERE id = ?", arguments: [ErrorCode.rulePatternTooComplex.rawValue, rule])
        }
        return application
    }

    /// Records `rule` as the rule hiding `ids`, writing only the entries it does not hide yet,
    /// and takes those that were shown and unread off their feeds' unread counts once a feed, as
    /// `setRead(_:where:arguments:db:)` does: the trigger's update of a count for every entry
    /// was most of the writing when a rule hides a tenth of a store.
    private static func hide(_ ids: [Int64], byRule rule: Int64, in db: Database) throws {
        var countChanges: [Int64: Int] = [:]
        let arguments: StatementArguments = [rule, idList(ids)]
        try $markingInBulk.withValue(true) {
            let shown = try Row.fetchCursor(db.cachedStatement(sql: """
                UPDATE entries SET hiddenByRule = ?1 WHERE id IN \(idsIn("?2")) AND hiddenByRule IS NULL
                RETURNING feedId, \(isUnread)
                """), arguments: arguments)
            while let row = try shown.next() {
                if row[1] as Bool { countChanges[row[0], default: 0] -= 1 }
            }
            // Hidden by another rule until now: no count changes.
            try db.cachedStatement(sql: """
                UPDATE entries SET hiddenByRule = ?1 WHERE id IN \(idsIn("?2")) AND hiddenByRule IS NOT NULL AND hiddenByRule != ?1
                """).execute(arguments: arguments)
        }
        let count = try db.cachedStatement(sql: "UPDATE feedUnreadCounts SET unread = unread + ? WHERE feedId = ?")
        for (feedID, change) in countChanges {
            try count.execute(arguments: [change, feedID])
        }
    }

    /// An entry's marks, so that a rule marks or stars only what it changes and queues no change
    /// a synced entry's server already has.
    private struct Marks {
        var isRead: Bool
        var isStarred: Bool
    }

    /// Calls `body` with each entry after `after` (every entry when nil), oldest first, reading
    /// only the columns of `fields` besides its marks.
    private static func forEachSubject(after: Int64?, limit: Int? = nil, reading fields: Set<RuleCondition.Field>, in db: Database,
                                       _ body: (Int64, RuleSubject, Marks) throws -> Void) throws {
        func column(_ field: RuleCondition.Field, _ expression: String) -> String {
            fields.contains(field) ? expression : "NULL"
        }
        let sql = """
            SELECT entries.id, \(column(.title, "entries.title")), \(column(.content, "COALESCE(entries.content, \(summaryExpression()))")),
                   \(column(.author, "entries.author")), \(column(.link, "entries.link")),
                   \(column(.feed, "feeds.title")), \(column(.feed, "feeds.url")),
                   \(column(.folder, "(SELECT name FROM folders WHERE folders.id = feeds.folderId)")),
                   \(column(.account, "accounts.server")), \(column(.account, "accounts.user")), NOT \(isUnread), entries.isStarred
            FROM entries JOIN feeds ON feeds.id = entries.feedId LEFT JOIN accounts ON accounts.id = feeds.accountId
            WHERE entries.id > ? ORDER BY entries.id \(limit.map { "LIMIT \($0)" } ?? "")
            """
        // Prepared once a connection: applying on demand runs it once a slice.
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [after ?? 0])
        while let row = try rows.next() {
            try body(row[0], RuleSubject(title: row[1], content: row[2], author: row[3], link: row[4], feedTitle: row[5],
                                         feedURL: row[6], folder: row[7], accountServer: row[8], accountUser: row[9]),
                     Marks(isRead: row[10], isStarred: row[11]))
        }
    }

    private static func storedRules(in db: Database) throws -> [StoredRule] {
        try Row.fetchAll(db, sql: "SELECT id, definition, problemCode FROM rules ORDER BY position, id").compactMap { row in
            // A definition this version cannot read (written by a newer one) is left alone, unused.
            guard var rule = try? JSONDecoder().decode(Rule.self, from: Data((row["definition"] as String).utf8)) else { return nil }
            rule.id = row["id"]
            let problem = (row["problemCode"] as String?).map { ErrorReason(storedCode: $0, storedDetails: nil) }
            return StoredRule(rule: rule, problem: problem)
        }
    }

    /// The enabled rules compiled, kept while their definitions stay the same: a refresh stores
    /// a batch of feeds a transaction and compiling a hundred rules each time would cost more
    /// than matching them.
    ///
    /// A sync asks for them every page, so whether they may have changed is asked first of what
    /// costs one pragma: the connection the book was last checked on, SQLite's `data_version`
    /// (which moves when another connection, of this process or another, commits) and this
    /// process's count of rule writes (`ruleWrites`, for those made on the same connection).
    /// When one moved, the rules are read as one text's bytes, each with its position and id,
    /// and compared: a hundred strings, compared as Unicode text, cost more than matching a page's
    /// entries. The position is in it so that a reordering shows whatever order SQLite joins them in.
    private static func compiledRules(in db: Database) throws -> RuleBook {
        let dataVersion = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
        let writes = ruleWrites.load(ordering: .acquiring)
        let unchanged = compiledRuleCache.withLock { cache -> RuleBook? in
            guard let cache, cache.connection.database === db, cache.dataVersion == dataVersion, cache.ruleWrites == writes else { return nil }
            return cache.book
        }
        if let unchanged { return unchanged }
        let definitions = try Data.fetchOne(db.cachedStatement(sql: """
            SELECT group_concat(position || ' ' || id || ' ' || definition, char(10))
            FROM (SELECT position, id, definition FROM rules ORDER BY position, id)
            """)) ?? Data()
        let book: RuleBook
        if definitions.isEmpty {
            book = try RuleBook([])
        } else if let kept = compiledRuleCache.withLock({ $0?.definitions == definitions ? $0?.book : nil }) {
            book = kept
        } else {
            book = try RuleBook(storedRules(in: db).map(\.rule))
        }
        let checked = RuleCache(definitions: definitions, book: book, connection: WeakDatabase(db), dataVersion: dataVersion, ruleWrites: writes)
        compiledRuleCache.withLock { $0 = checked }
        return book
    }

    /// The rules last compiled, and what said they were current.
    private struct RuleCache: Sendable {
        var definitions: Data
        var book: RuleBook
        /// Weak: a connection closed and another opened at its address is not the same one.
        var connection: WeakDatabase
        var dataVersion: Int
        var ruleWrites: Int
    }

    /// A connection, compared by identity and never used: it belongs to its store's queue.
    private final class WeakDatabase: @unchecked Sendable {
        weak var database: Database?

        init(_ database: Database) { self.database = database }
    }

    private static let compiledRuleCache = Mutex<RuleCache?>(nil)

    /// The rule writes this process made, each counted in the transaction that makes it: a
    /// connection's own commits do not move its `data_version`.
    private static let ruleWrites = Atomic<Int>(0)

    /// Counts a write to the rules, for `compiledRules(in:)`.
    private static func countRuleWrite() {
        ruleWrites.add(1, ordering: .releasing)
    }

    /// A rule as the `definition` column keeps it: JSON, without its id.
    private static func definition(of rule: Rule) throws -> String {
        var stored = rule
        stored.id = nil
        stored.label = try rule.label.map { try LabelName.cleaned($0) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(stored), as: UTF8.self)
    }

    /// `v19-rules`: the rules, and the rule that hid each hidden entry.
    static func createRules(in db: Database) throws {
        try db.create(table: "rules") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("position", .integer).notNull()
            table.column("definition", .text).notNull()
            table.column("problemCode", .text)
        }
        // No foreign key: removing a rule shows its entries again by an update (removeRule), and
        // SQLite cannot add a column with one to a table that has rows.
        try db.alter(table: "entries") { table in table.add(column: "hiddenByRule", .integer) }
        // Unread counts leave hidden entries out, reading the index alone.
        try db.execute(sql: """
            DROP INDEX entries_by_feed_and_read;
            CREATE INDEX entries_by_feed_and_read ON entries (feedId, isRead, hiddenByRule);
            """)
    }
}

/// What the rules say of the entries a refresh's transaction adds: each fetch's entries are judged
/// before they are inserted, and the verdicts of those inserted are kept for what is done after.
final class RuleArrivals {
    private let book: RuleBook
    private let readsPlace: Bool
    /// How many entries were added.
    private(set) var examined = 0
    /// The entries added that some rule matched or gave up on, in the order they were added.
    private(set) var judged: [(id: Int64, verdict: RuleBook.Verdict)] = []

    init(_ book: RuleBook) {
        self.book = book
        readsPlace = !book.fields.isDisjoint(with: [.feed, .folder, .account])
    }

    /// The verdicts on a fetch's `entries` for feed `feedID`, by entry id, with the feed's names as
    /// stored: read after the fetch's own changes to the feed (a title, a permanent redirect).
    /// An entry listed twice is stored with the texts listed first, and judged by them.
    func verdicts(on entries: [Entry], ofFeed feedID: Int64, in db: Database) throws -> [String: RuleBook.Verdict] {
        var ids: [String] = [], subjects: [RuleSubject] = []
        var seen = Set<String>()
        for entry in entries where seen.insert(entry.id).inserted {
            ids.append(entry.id)
            subjects.append(RuleSubject(title: entry.title, content: entry.content ?? entry.summary, author: entry.author, link: entry.linkString))
        }
        if readsPlace {
            let place = try FeedStore.place(ofFeedWithID: feedID, in: db)
            for index in subjects.indices { place.put(into: &subjects[index]) }
        }
        return Dictionary(uniqueKeysWithValues: zip(ids, book.verdicts(for: subjects)))
    }

    /// Notes that entry `id` was just added, judged by `verdict`.
    func inserted(_ id: Int64, verdict: RuleBook.Verdict?) {
        examined += 1
        if let verdict, !verdict.isEmpty { judged.append((id, verdict)) }
    }

    /// Where the notes stand, to go back to if a feed's savepoint is rolled back.
    var position: (examined: Int, judged: Int) { (examined, judged.count) }

    /// Forgets the entries noted after `position`: their feed's savepoint was rolled back, and the
    /// ids they had will be given again.
    func rollBack(to position: (examined: Int, judged: Int)) {
        examined = position.examined
        judged.removeSubrange(position.judged...)
    }
}
