import Foundation

/// A group of the Fever API, which is a folder here.
struct FeverGroup: Hashable, Sendable {
    var id: Int64
    var title: String
    var feedIDs: [Int64]
}

/// A feed of the Fever API.
struct FeverFeed: Hashable, Sendable {
    var id: Int64
    var title: String
    var url: URL?
    var siteURL: URL?
}

/// An item of the Fever API.
struct FeverItem: Hashable, Sendable {
    var id: Int64
    var feedID: Int64
    var title: String
    var author: String?
    var html: String
    var url: URL?
    var isRead: Bool
    var isSaved: Bool
    var created: Date?
}

/// A client of the Fever API as FreshRSS, Miniflux and tt-rss's plugin serve it: every call is a
/// POST of `api_key` = md5("user:password") to `endpoint?api&…`, and the answer says in `auth`
/// whether the key was accepted. Fever has no call to subscribe, unsubscribe or move a feed.
actor FeverClient {
    /// Where the API is; a FreshRSS base address is replaced by its API's at the first login.
    private(set) var endpoint: URL
    /// Whether a login found the API at `endpoint`, which every other call waits for.
    private var endpointFound = false
    private let apiKey: String
    private let connection: WebAPIConnection

    /// The most items one `items` call returns; the protocol has no parameter for more.
    static let itemsPerCall = 50

    init(endpoint: URL, user: String, password: String, connection: WebAPIConnection) {
        self.endpoint = endpoint
        apiKey = MD5.hex(Array("\(user):\(password)".utf8))
        self.connection = connection
    }

    init(endpoint: URL, user: String, password: String) {
        self.init(endpoint: endpoint, user: user, password: password, connection: WebAPIConnection())
    }

    /// Checks the key: the API's version and whether it was accepted. When nothing answers as
    /// Fever at the endpoint but FreshRSS's Fever API does beneath it, that becomes the endpoint.
    func logIn() async throws(WebAPIError) {
        do {
            _ = try await request([])
        } catch where error.mayBeBeneath && endpoint.lastPathComponent != "fever.php" {
            let first = error
            let base = endpoint
            endpoint = base.appending(path: "api/fever.php")
            do {
                _ = try await request([])
            } catch {
                endpoint = base
                // A moved server stays moved: the address beneath it is no API either.
                throw error == .notTheService ? first : error
            }
        }
        endpointFound = true
    }

    /// The groups with the ids of their feeds.
    func groups() async throws(WebAPIError) -> [FeverGroup] {
        let wire: FeverGroupsWire = try Self.decoded(try await call(["groups"]))
        let members = Self.feedIDs(wire.feeds_groups ?? [])
        return try (wire.groups ?? []).map { group throws(WebAPIError) in
            guard let id = group.id.int64 else { throw .malformedAnswer }
            return FeverGroup(id: id, title: group.title ?? "", feedIDs: members[id] ?? [])
        }
    }

    /// Every feed.
    func feeds() async throws(WebAPIError) -> [FeverFeed] {
        let wire: FeverFeedsWire = try Self.decoded(try await call(["feeds"]))
        return try (wire.feeds ?? []).map { feed throws(WebAPIError) in
            guard let id = feed.id.int64 else { throw .malformedAnswer }
            return FeverFeed(id: id, title: feed.title ?? "", url: feed.url.flatMap(URL.init(string:)),
                             siteURL: feed.site_url.flatMap(URL.init(string:)))
        }
    }

    /// Up to 50 items with ids above `sinceID`, oldest first.
    func items(since sinceID: Int64) async throws(WebAPIError) -> [FeverItem] {
        try await items(["since_id": String(sinceID)])
    }

    /// The ids of every unread item.
    func unreadItemIDs() async throws(WebAPIError) -> [Int64] {
        try Self.idList(try await call(["unread_item_ids"]), key: "unread_item_ids")
    }

    /// The ids of every saved (starred) item.
    func savedItemIDs() async throws(WebAPIError) -> [Int64] {
        try Self.idList(try await call(["saved_item_ids"]), key: "saved_item_ids")
    }

    /// What `mark` can set on an item.
    enum ItemState: String, Sendable {
        case read, saved, unsaved
        /// Not in the Fever protocol, which cannot mark an item unread; FreshRSS, Miniflux and
        /// tt-rss's plugin accept it.
        case unread
    }

    /// Sets `state` on the item `id`.
    func mark(item id: Int64, as state: ItemState) async throws(WebAPIError) {
        _ = try await call([], form: [("mark", "item"), ("as", state.rawValue), ("id", String(id))])
    }

    /// Marks the items of the feed `id` that the server fetched up to `before` as read.
    func markFeedRead(_ id: Int64, before: Date) async throws(WebAPIError) {
        try await markRead("feed", id: id, before: before)
    }

    /// Marks the items of the group `id` (0 is every feed) that the server fetched up to `before` as read.
    func markGroupRead(_ id: Int64, before: Date) async throws(WebAPIError) {
        try await markRead("group", id: id, before: before)
    }

    private func markRead(_ kind: String, id: Int64, before: Date) async throws(WebAPIError) {
        // Unix seconds, compared with when the server fetched each item. 0 would mean "now" in
        // whole seconds, leaving this second's items unread, so it is never sent.
        let seconds = max(1, Int64(before.timeIntervalSince1970.rounded(.up)))
        _ = try await call([], form: [("mark", kind), ("as", "read"), ("id", String(id)), ("before", String(seconds))])
    }

    // MARK: - Requests

    private func items(_ query: [String: String]) async throws(WebAPIError) -> [FeverItem] {
        let wire: FeverItemsWire = try Self.decoded(try await call(["items"] + query.map { "\($0.key)=\($0.value)" }))
        return try (wire.items ?? []).map { item throws(WebAPIError) in
            guard let id = item.id.int64, let feedID = item.feed_id.int64 else { throw .malformedAnswer }
            return FeverItem(id: id, feedID: feedID, title: item.title ?? "", author: item.author.flatMap { $0.isEmpty ? nil : $0 },
                             html: item.html ?? "", url: item.url.flatMap(URL.init(string:)),
                             isRead: item.is_read?.int64 == 1, isSaved: item.is_saved?.int64 == 1,
                             created: item.created_on_time?.int64.map { Date(timeIntervalSince1970: Double($0)) })
        }
    }

    /// `request`, after a first login has found where the API is.
    private func call(_ flags: [String], form: [(String, String)] = []) async throws(WebAPIError) -> Data {
        if !endpointFound {
            try await logIn()
        }
        return try await request(flags, form: form)
    }

    /// POSTs the key (and `form`) to `endpoint?api&flags…` and checks `auth`.
    private func request(_ flags: [String], form: [(String, String)] = []) async throws(WebAPIError) -> Data {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = (["api"] + flags).joined(separator: "&")
        // The key goes in the body: FreshRSS ignores one in the query.
        let url = components.url!
        let hop = try await connection.send(url, form: [("api_key", apiKey)] + form)
        switch hop.status {
        case 200:
            break
        // FreshRSS deviation: with its API switched off it answers 503 and no JSON.
        case 503:
            throw .apiDisabled
        case 401, 403:
            throw .unauthorized
        case 429:
            throw .rateLimited(until: hop.retryDate)
        // A redirect to a login page on the same server; one elsewhere is a moved server.
        case 300..<400:
            throw .redirect(hop, from: url, sameOrigin: .notTheService)
        // Another API at this address (a Google Reader API refuses `?api` with 400), or nothing.
        case 400, 404, 405, 501:
            throw .notTheService
        default:
            throw .httpStatus(hop.status)
        }
        // The protocol answers a wrong key with 200 and "auth":0, never with 401.
        guard let header = try? JSONDecoder().decode(FeverAuthWire.self, from: hop.body), header.api_version != nil else {
            throw .notTheService
        }
        guard header.auth?.int64 == 1 else { throw .unauthorized }
        return hop.body
    }

    private static func decoded<Value: Decodable>(_ body: Data) throws(WebAPIError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: body)
        } catch {
            throw .malformedAnswer
        }
    }

    /// A comma-separated id list, which FreshRSS and Fever send as one string ("" when empty).
    private static func idList(_ body: Data, key: String) throws(WebAPIError) -> [Int64] {
        let wire: [String: LenientNumber] = (try? JSONDecoder().decode([String: LenientNumberOrNull].self, from: body))?
            .compactMapValues(\.value) ?? [:]
        guard let list = wire[key] else { throw .malformedAnswer }
        return try parseIDs(list.text)
    }

    /// The ids in a comma-separated list, counted before any is read: a list longer than a sync
    /// takes fails without ever becoming an array of millions.
    static func parseIDs(_ list: String, limit: Int = SyncLimits.listedIDs) throws(WebAPIError) -> [Int64] {
        let count = list.utf8.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 }
        guard count <= limit else { throw .tooManyIDs(limit) }
        return try list.split(separator: ",").map { part throws(WebAPIError) in
            guard let id = Int64(part.trimmingCharacters(in: .whitespaces)) else { throw .malformedAnswer }
            return id
        }
    }

    private static func feedIDs(_ memberships: [FeverGroupsWire.Membership]) -> [Int64: [Int64]] {
        var members: [Int64: [Int64]] = [:]
        for membership in memberships {
            guard let group = membership.group_id.int64 else { continue }
            members[group, default: []] += (try? parseIDs(membership.feed_ids?.text ?? "")) ?? []
        }
        return members
    }
}

// MARK: - Wire forms

/// Ids and flags that FreshRSS sends as strings and the protocol as numbers; accepted either way.
private struct FeverAuthWire: Decodable {
    var api_version: LenientNumber?
    var auth: LenientNumber?
}

/// Any member of a reply, of which only numbers and strings are kept.
private struct LenientNumberOrNull: Decodable {
    var value: LenientNumber?

    init(from decoder: any Decoder) throws {
        value = try? LenientNumber(from: decoder)
    }
}

private struct FeverGroupsWire: Decodable {
    struct Group: Decodable {
        var id: LenientNumber
        var title: String?
    }

    struct Membership: Decodable {
        var group_id: LenientNumber
        var feed_ids: LenientNumber?
    }

    var groups: [Group]?
    var feeds_groups: [Membership]?
}

private struct FeverFeedsWire: Decodable {
    struct Feed: Decodable {
        var id: LenientNumber
        var title: String?
        var url: String?
        var site_url: String?
    }

    var feeds: [Feed]?
}

private struct FeverItemsWire: Decodable {
    struct Item: Decodable {
        var id: LenientNumber
        var feed_id: LenientNumber
        var title: String?
        var author: String?
        var html: String?
        var url: String?
        var is_read: LenientNumber?
        var is_saved: LenientNumber?
        var created_on_time: LenientNumber?
    }

    var items: [Item]?
}
