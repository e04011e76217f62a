import GRDB

extension FeedStore {
    /// The schema's history; add a migration for every change, never edit a shipped one.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "feeds") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("url", .text).notNull().unique()
                table.column("title", .text)
                table.column("link", .text)
                table.column("iconURL", .text)
                table.column("etag", .text)
                table.column("lastModified", .text)
                table.column("lastFetched", .datetime)
                table.column("lastError", .text)
                table.column("position", .integer).notNull()
            }
            try db.create(table: "entries") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("feedId", .integer).notNull().references("feeds", onDelete: .cascade)
                table.column("entryId", .text).notNull()
                table.column("title", .text)
                table.column("link", .text)
                table.column("author", .text)
                table.column("published", .datetime)
                table.column("updated", .datetime)
                table.column("summary", .text)
                table.column("content", .text)
                table.column("enclosures", .blob)
                table.column("isRead", .boolean).notNull().defaults(to: false)
                table.column("insertedAt", .datetime).notNull()
                // COALESCE(published, updated, insertedAt), kept in a column so paging can use an index.
                table.column("sortDate", .datetime).notNull()
                table.uniqueKey(["feedId", "entryId"])
            }
            try db.create(index: "entries_by_date", on: "entries", columns: ["sortDate", "id"])
            try db.create(index: "entries_by_feed_and_date", on: "entries", columns: ["feedId", "sortDate", "id"])
            try db.create(index: "entries_by_feed_and_read", on: "entries", columns: ["feedId", "isRead"])
        }
        migrator.registerMigration("v2-summary-html") { db in
            // The summary as published, so an entry without a body still shows its formatting.
            try db.alter(table: "entries") { table in table.add(column: "summaryHTML", .text) }
        }
        migrator.registerMigration("v3-starred") { db in
            try db.alter(table: "entries") { table in table.add(column: "isStarred", .boolean).notNull().defaults(to: false) }
            try db.create(index: "entries_starred_by_date", on: "entries", columns: ["isStarred", "sortDate", "id"])
        }
        migrator.registerMigration("v4-search") { db in
            // Title, author and text kept in step with the entries by triggers (FeedStore+Search).
            try FeedStore.createSearchIndex(in: db, prefixes: "1 2 3")
        }
        migrator.registerMigration("v5-warnings") { db in
            // What the last fetch's document got wrong though it was read, one warning per line.
            try db.alter(table: "feeds") { table in table.add(column: "lastWarnings", .text) }
        }
        migrator.registerMigration("v6-search-prefixes") { db in
            // Prefix indexes, so the first letters typed find their words without a scan.
            try db.execute(sql: """
                DROP TRIGGER entries_search_insert; DROP TRIGGER entries_search_update; DROP TRIGGER entries_search_delete;
                DROP TABLE entries_search;
                """)
            try FeedStore.createSearchIndex(in: db, prefixes: "1 2 3")
        }
        migrator.registerMigration("v7-folders") { db in
            try db.create(table: "folders") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull().unique()
                table.column("position", .integer).notNull()
            }
            try db.alter(table: "feeds") { table in table.add(column: "folderId", .integer).references("folders", onDelete: .setNull) }
        }
        migrator.registerMigration("v8-http-cache") { db in
            // The earliest each feed may be fetched again (max-age, Retry-After), and hosts that asked
            // to be left alone (429, 503), so the limits hold across restarts; and when each feed was
            // last asked, whatever came of it, for background refresh's turns.
            try db.alter(table: "feeds") { table in
                table.add(column: "nextFetch", .datetime)
                table.add(column: "lastAttempt", .datetime)
            }
            try db.create(table: "hostBackoff") { table in
                table.primaryKey("host", .text)
                table.column("until", .datetime).notNull()
                table.column("strikes", .integer).notNull()
            }
        }
        migrator.registerMigration("v9-retention") { db in
            // Entries removed for their age, so a feed still listing them does not bring them back as new.
            try db.create(table: "expiredEntries", options: .withoutRowID) { table in
                table.column("feedId", .integer).notNull().references("feeds", onDelete: .cascade)
                table.column("entryId", .text).notNull()
                table.primaryKey(["feedId", "entryId"])
            }
        }
        migrator.registerMigration("v10-icons") { db in
            // Where each feed's icon was found and its validators; the image itself is a file (FeedIcons).
            try db.create(table: "feedIcons") { table in
                table.primaryKey("feedId", .integer).references("feeds", onDelete: .cascade)
                table.column("url", .text)
                table.column("etag", .text)
                table.column("lastModified", .text)
                table.column("checkedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v11-nested-folders") { db in
            // A folder may sit in another, as other readers' OPML nests them: names are unique among
            // a folder's siblings only (kept so by FeedStore+Subscriptions), so the table is made again
            // without the unique name, keeping every folder's id for the feeds in it.
            try db.create(table: "newFolders") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull()
                table.column("position", .integer).notNull()
                table.column("parentId", .integer).references("folders", onDelete: .cascade)
            }
            try db.execute(sql: """
                INSERT INTO newFolders (id, name, position) SELECT id, name, position FROM folders;
                DROP TABLE folders;
                ALTER TABLE newFolders RENAME TO folders;
                CREATE INDEX folders_by_parent ON folders (parentId, name);
                """)
        }
        migrator.registerMigration("v12-error-codes") { db in
            // A failed fetch's reason as a code and its values, worded by the app in the language
            // it shows; the English sentences stored before are read back into codes where they can be.
            try db.alter(table: "feeds") { table in
                table.add(column: "lastErrorCode", .text)
                table.add(column: "lastErrorDetails", .text)
            }
            let legacy = try Row.fetchAll(db, sql: "SELECT id, lastError FROM feeds WHERE lastError IS NOT NULL")
            for row in legacy {
                let reason = ErrorReason(legacyText: row["lastError"] as String)
                try db.execute(sql: "UPDATE feeds SET lastErrorCode = ?, lastErrorDetails = ? WHERE id = ?",
                               arguments: [reason.code.rawValue, reason.storedDetails, row["id"]])
            }
            try db.alter(table: "feeds") { table in table.drop(column: "lastError") }
        }
        migrator.registerMigration("v13-accounts") { db in
            // Accounts on sync servers (their passwords live in the secret store). Their categories
            // are folders, their feeds feeds and their articles entries, each with the server's id.
            try db.create(table: "accounts") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("service", .text).notNull()
                table.column("server", .text).notNull()
                table.column("user", .text).notNull()
                table.column("position", .integer).notNull()
                table.column("lastSync", .datetime)
                table.column("lastErrorCode", .text)
                table.column("lastErrorDetail", .text)
                table.column("cursor", .text)
            }
            try db.alter(table: "folders") { table in
                table.add(column: "accountId", .integer).references("accounts", onDelete: .cascade)
                table.add(column: "remoteId", .text)
            }
            try db.create(index: "folders_by_remote_id", on: "folders", columns: ["accountId", "remoteId"], unique: true,
                          condition: Column("accountId") != nil)
            // An address is unique among the local subscriptions and within each account, not across
            // them: the table is made again without its unique url, keeping every feed's id.
            try db.create(table: "newFeeds") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("url", .text).notNull()
                table.column("title", .text)
                table.column("link", .text)
                table.column("iconURL", .text)
                table.column("etag", .text)
                table.column("lastModified", .text)
                table.column("lastFetched", .datetime)
                table.column("lastErrorCode", .text)
                table.column("lastErrorDetails", .text)
                table.column("position", .integer).notNull()
                table.column("lastWarnings", .text)
                table.column("folderId", .integer).references("folders", onDelete: .setNull)
                table.column("nextFetch", .datetime)
                table.column("lastAttempt", .datetime)
                table.column("accountId", .integer).references("accounts", onDelete: .cascade)
                table.column("remoteId", .text)
            }
            try db.execute(sql: """
                INSERT INTO newFeeds (id, url, title, link, iconURL, etag, lastModified, lastFetched, lastErrorCode, lastErrorDetails, position,
                                      lastWarnings, folderId, nextFetch, lastAttempt)
                SELECT id, url, title, link, iconURL, etag, lastModified, lastFetched, lastErrorCode, lastErrorDetails, position,
                       lastWarnings, folderId, nextFetch, lastAttempt FROM feeds;
                DROP TABLE feeds;
                ALTER TABLE newFeeds RENAME TO feeds;
                CREATE UNIQUE INDEX feeds_local_by_url ON feeds (url) WHERE accountId IS NULL;
                CREATE UNIQUE INDEX feeds_by_remote_id ON feeds (accountId, remoteId) WHERE accountId IS NOT NULL;
                """)
            // Synced entries keep the server's article id in entryId too; this finds them by it.
            try db.alter(table: "entries") { table in table.add(column: "remoteId", .text) }
            try db.create(index: "entries_by_remote_id", on: "entries", columns: ["remoteId"], condition: Column("remoteId") != nil)
            // Changes made here that the server has yet to make, oldest first. A read or star change
            // replaces an earlier one of the same article, so only the latest is sent.
            try db.create(table: "syncQueue") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("accountId", .integer).notNull().references("accounts", onDelete: .cascade)
                table.column("action", .text).notNull()
                table.column("remoteId", .text)
                table.column("argument", .text)
                table.column("queuedAt", .datetime).notNull()
            }
            try db.create(index: "syncQueue_by_item", on: "syncQueue", columns: ["accountId", "remoteId", "action"])
        }
        migrator.registerMigration("v14-custom-titles") { db in
            // A title a person gave a feed is kept over the titles its fetches bring.
            try db.alter(table: "feeds") { table in table.add(column: "titleIsCustom", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v15-full-articles") { db in
            // Articles extracted from entries' pages, found by search, and the feeds that always show them.
            try FeedStore.createFullArticles(in: db)
        }
        migrator.registerMigration("v16-media-positions") { db in
            // Where each episode or video was left, so it resumes there; gone with its entry.
            try db.create(table: "mediaPositions") { table in
                table.column("entryId", .integer).notNull().references("entries", onDelete: .cascade)
                table.column("url", .text).notNull()
                table.column("seconds", .double).notNull()
                table.primaryKey(["entryId", "url"])
            }
        }
        migrator.registerMigration("v17-search-index") { db in
            try FeedStore.rebuildSearchIndexWithoutThreeLetterPrefixes(in: db)
        }
        migrator.registerMigration("v18-search-backlog") { db in
            try FeedStore.addSearchBacklog(in: db)
        }
        migrator.registerMigration("v19-rules") { db in
            try FeedStore.createRules(in: db)
        }
        migrator.registerMigration("v20-feed-settings") { db in
            try FeedStore.addFeedSettings(in: db)
        }
        migrator.registerMigration("v21-warning-codes") { db in
            try FeedStore.storeWarningsAsCodes(in: db)
        }
        migrator.registerMigration("v22-sync-codes") { db in
            // Accounts' sync failures under the one list's codes: "wrongCredentials" is "sync.wrong-credentials".
            for (old, code) in SyncError.legacyCodes {
                try db.execute(sql: "UPDATE accounts SET lastErrorCode = ? WHERE lastErrorCode = ?", arguments: [code.rawValue, old])
            }
        }
        migrator.registerMigration("v23-labels") { db in
            try FeedStore.createLabels(in: db)
        }
        migrator.registerMigration("v24-saved-searches") { db in
            try FeedStore.createSavedSearches(in: db)
        }
        migrator.registerMigration("v25-feed-fetch-settings") { db in
            try FeedStore.addFeedFetchSettings(in: db)
        }
        migrator.registerMigration("v26-unread-counts") { db in
            try FeedStore.createUnreadCounts(in: db)
        }
        migrator.registerMigration("v27-starred-index") { db in
            // The starred entries alone, not a row for every entry (5% of a store of generated
            // entries, docs/performance.md): every query of them says `isStarred = 1`, which a
            // partial index answers in the same date order.
            try db.execute(sql: """
                DROP INDEX entries_starred_by_date;
                CREATE INDEX entries_starred_by_date ON entries (sortDate, id) WHERE isStarred = 1;
                """)
        }
        migrator.registerMigration("v28-contentless-search") { db in
            try FeedStore.makeSearchIndexContentless(in: db)
        }
        migrator.registerMigration("v29-bulk-read-marks") { db in
            try FeedStore.markInBulk(in: db)
        }
        migrator.registerMigration("v30-unread-marks") { db in
            try FeedStore.moveReadMarksOut(in: db)
        }
        migrator.registerMigration("v31-search-words-only") { db in
            try FeedStore.dropSearchPrefixIndexes(in: db)
        }
        return migrator
    }()
}
