import Foundation
import GRDB

/// What went wrong as a stable code and the values a sentence about it needs, with no words:
/// it is stored and passed on as it is, and the app words it in the current language when it shows it.
public struct ErrorReason: Sendable, Hashable {
    /// Which problem it is; stored, so a code keeps its raw value once shipped.
    public var code: ErrorCode
    /// The values the sentence names, under the keys of `Detail`: a status, a path, a line.
    public var details: [Detail: String]

    public init(_ code: ErrorCode, _ details: [Detail: String] = [:]) {
        self.code = code
        self.details = details
    }

    /// The value under `key`, or nil.
    public subscript(_ key: Detail) -> String? { details[key] }

    /// The code, its values and the words from below in one line, for a bug report, as
    /// "opml.malformed (line=4): Opening and ending tag mismatch": no sentence, no SQL.
    public var technicalSummary: String {
        let values = details.filter { $0.key != .technical }.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key.rawValue)=\($0.value)" }
        return code.rawValue + (values.isEmpty ? "" : " (\(values.joined(separator: ", ")))")
            + (details[.technical].map { ": \($0)" } ?? "")
    }
}

/// The problems FeedCore reports; the raw values are stored in the database.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
    // Fetching
    case httpStatus = "fetch.http-status"
    case timedOut = "fetch.timed-out"
    case tooLarge = "fetch.too-large"
    case unsupportedEncoding = "fetch.unsupported-encoding"
    case corruptEncoding = "fetch.corrupt-encoding"
    case tooManyRedirects = "fetch.too-many-redirects"
    case badRedirect = "fetch.bad-redirect"
    case redirectToLocalFile = "fetch.redirect-to-local-file"
    case unsupportedScheme = "fetch.unsupported-scheme"
    case localFileRefused = "fetch.local-file-refused"
    case fileNotFound = "fetch.file-not-found"
    case unreadableFile = "fetch.unreadable-file"
    case notAFile = "fetch.not-a-file"
    case hostNotFound = "fetch.host-not-found"
    case cannotConnect = "fetch.cannot-connect"
    case connectionLost = "fetch.connection-lost"
    case secureConnectionFailed = "fetch.secure-connection-failed"
    case network = "fetch.network"
    case cancelled = "fetch.cancelled"
    // Parsing
    case malformedXML = "parse.malformed-xml"
    case malformedJSON = "parse.malformed-json"
    case notAFeed = "parse.not-a-feed"
    // Parse warnings: mistakes in a feed that was read anyway
    case textBeforeDeclaration = "parse.text-before-declaration"
    case bareAmpersand = "parse.bare-ampersand"
    case htmlEntities = "parse.html-entities"
    case undefinedEntity = "parse.undefined-entity"
    case doubleHyphenInComment = "parse.double-hyphen-in-comment"
    case unclosedCDATA = "parse.unclosed-cdata"
    case doctypeIgnored = "parse.doctype-ignored"
    case entityDeclarationsIgnored = "parse.entity-declarations-ignored"
    case unknownEncoding = "parse.unknown-encoding"
    case undeclaredEncoding = "parse.undeclared-encoding"
    case notUTF8 = "parse.not-utf8"
    /// A mistake mended in a way this version has no code for (a warning stored as English text
    /// by an older version): the text is kept as the technical detail.
    case repaired = "parse.repaired"
    // Subscribing
    case invalidAddress = "subscribe.invalid-address"
    case alreadySubscribed = "subscribe.already-subscribed"
    case noFeedFound = "subscribe.no-feed-found"
    // OPML
    case opmlMalformed = "opml.malformed"
    case notOPML = "opml.not-opml"
    case opmlDeclaresEntities = "opml.declares-entities"
    case opmlTooDeep = "opml.too-deep"
    case opmlTooLarge = "opml.too-large"
    // Storage
    case feedNotFound = "store.feed-not-found"
    case entryNotFound = "store.entry-not-found"
    case folderExists = "store.folder-exists"
    case folderInsideItself = "store.folder-inside-itself"
    case databaseDamaged = "store.damaged"
    case databaseBusy = "store.busy"
    case diskFull = "store.disk-full"
    case databaseReadOnly = "store.read-only"
    case accountExists = "store.account-exists"
    case accountNotFound = "store.account-not-found"
    case folderNotInAccount = "store.folder-not-in-account"
    case storageFailed = "store.failed"
    // Rules
    case ruleMalformed = "rule.malformed"
    case ruleIncomplete = "rule.incomplete"
    case ruleInvalidPattern = "rule.invalid-pattern"
    case rulePatternTooComplex = "rule.pattern-too-complex"
    case ruleNotFound = "rule.not-found"
    // Labels
    case labelEmptyName = "label.empty-name"
    case labelNameTooLong = "label.name-too-long"
    case labelExists = "label.exists"
    case labelNotFound = "label.not-found"
    // Syncing with a server (the detail of `SyncError`)
    /// The server refused the user name or password.
    case wrongCredentials = "sync.wrong-credentials"
    /// The user's API access is switched off on the server (tt-rss: Preferences, "Enable API").
    case apiDisabled = "sync.api-disabled"
    /// Something answered at the address, but not the kind of server the account is for.
    case notThisKindOfServer = "sync.not-this-kind-of-server"
    /// The secure connection could not be set up: certificate or TLS trouble.
    case tls = "sync.tls"
    /// The host could not be found or did not accept the connection, or the connection broke.
    case unreachable = "sync.unreachable"
    /// No complete answer arrived in time.
    case timeout = "sync.timeout"
    /// The server's answer could not be read: malformed, cut short, too large or not what the API promises.
    case badResponse = "sync.bad-response"
    /// The server answered with an error of its own (an HTTP 5xx, an API error).
    case serverError = "sync.server-error"
    /// The server refused to subscribe to a feed: not a feed, could not be downloaded, and the like.
    case subscriptionRefused = "sync.subscription-refused"
    /// The server sends the account's requests to another address, which is never followed: `url`.
    case moved = "sync.moved"
    /// The server asks to wait (HTTP 429): `date` says until when, when it said.
    case rateLimited = "sync.rate-limited"
    // The keyring accounts' passwords are kept in
    /// No Secret Service runs on the session bus (no GNOME Keyring, no KWallet), or there is no session bus.
    case keyringUnavailable = "secrets.unavailable"
    /// The keyring is locked and was not unlocked, or the person dismissed the prompt.
    case keyringLocked = "secrets.locked"
    /// The Secret Service answered with an error.
    case keyringFailed = "secrets.failed"
    // Feed settings
    case feedIntervalTooShort = "feed.interval-too-short"
    case feedRetentionTooShort = "feed.retention-too-short"
    case feedInvalidUserAgent = "feed.invalid-user-agent"
    case feedInvalidUserName = "feed.invalid-user-name"
    /// An error text written before errors had codes (or by a newer version): kept, never shown.
    case unrecorded = "unrecorded"
}

extension ErrorReason {
    /// The keys of `details`; stored, so a key keeps its raw value once shipped.
    public enum Detail: String, Sendable, Hashable, CaseIterable {
        /// An HTTP status code.
        case status
        /// A duration in seconds, "15" or "0.5".
        case seconds
        /// A size in bytes.
        case bytes
        /// A compression scheme's name.
        case encoding
        /// A count that was exceeded.
        case limit
        /// An address's scheme, "ftp".
        case scheme
        /// A file's path.
        case path
        /// What a path names instead of a file: directory, named-pipe, device, socket.
        case kind
        /// A server's host name.
        case host
        /// A 1-based line in a document.
        case line
        /// A 1-based column in a document.
        case column
        /// What the user typed.
        case text
        /// A folder's name.
        case name
        /// A feed's or entry's identifier.
        case id
        /// An address.
        case url
        /// A date and time in ISO 8601.
        case date
        /// A sync service's kind, "tt-rss".
        case service
        /// English words from below (libcurl, libxml2, SQLite, a legacy message): for the details only.
        case technical
    }
}

/// An error that can say what went wrong as an `ErrorReason`.
public protocol ReasonedError: Error {
    var reason: ErrorReason { get }
}

extension ErrorReason {
    /// The reason of any error: its own when it has one; otherwise a storage failure whose
    /// technical text is SQLite's code and message, never the SQL it ran, or the error's type and code.
    public init(_ error: any Error) {
        if let error = error as? any ReasonedError {
            self = error.reason
        } else if let error = error as? DatabaseError {
            let technical = "SQLite error \(error.extendedResultCode.rawValue): \(error.message ?? "")"
            if let refusal = FeedStoreError(refusal: error) {
                self.init(refusal.reason.code, [.technical: technical])
                return
            }
            let code: ErrorCode = error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB ? .databaseDamaged : .storageFailed
            self.init(code, [.technical: technical])
        } else {
            let nsError = error as NSError
            self.init(.storageFailed, [.technical: "\(nsError.domain) \(nsError.code)"])
        }
    }

    /// The details kept as text in the database: one `key=value` a line, keys in order.
    public var storedDetails: String? {
        details.isEmpty ? nil : details.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key.rawValue)=\($0.value.replacingOccurrences(of: "\n", with: " "))" }
            .joined(separator: "\n")
    }

    /// A reason read back from the database; a code this version does not know becomes `.unrecorded`.
    public init(storedCode: String, storedDetails: String?) {
        guard let code = ErrorCode(rawValue: storedCode) else {
            self.init(.unrecorded)
            return
        }
        var details: [Detail: String] = [:]
        for line in (storedDetails ?? "").split(separator: "\n") {
            guard let equals = line.firstIndex(of: "="), let key = Detail(rawValue: String(line[..<equals])) else { continue }
            details[key] = String(line[line.index(after: equals)...])
        }
        self.init(code, details)
    }
}
