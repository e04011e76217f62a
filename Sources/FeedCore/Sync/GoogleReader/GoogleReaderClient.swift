import Foundation

/// A client of the Google Reader API as FreshRSS, Miniflux, Inoreader, The Old Reader and BazQux
/// serve it: ClientLogin, then `reader/api/0/…` with the session token, and a separate action
/// token (`T`) on every change.
///
/// The session token lasts until the server refuses it, so it is kept in the secret store beside
/// the password when one is given: a later process reuses it and logs in only when it is refused.
///
/// `endpoint` is the address under which `accounts/ClientLogin` and `reader/api/0/` live:
/// `BASE/api/greader.php` for FreshRSS, `https://www.inoreader.com` for Inoreader.
actor GoogleReaderClient {
    /// Where the API is; a FreshRSS base address is replaced by its API's at the first login.
    private(set) var endpoint: URL
    private let user: String
    private let password: String
    private let connection: WebAPIConnection
    private var authToken: String?
    private var actionToken: String?
    /// Where the session token is kept between processes, if anywhere.
    private let sessionStore: (secrets: any SecretStore, key: SecretKey)?
    /// The session kept by an earlier process, looked up once, by the first request that needs
    /// one; nil after the server refused a session.
    private var keptSession: Task<GoogleReaderSession?, Never>?
    /// How many item refs one `stream/items/ids` request asks for.
    let pageSize: Int
    /// How many ids one `stream/items/contents` or `edit-tag` request carries.
    let batchSize: Int

    init(endpoint: URL, user: String, password: String, connection: WebAPIConnection = WebAPIConnection(),
         sessionStore: (secrets: any SecretStore, key: SecretKey)? = nil, pageSize: Int = 10_000, batchSize: Int = 250) {
        self.endpoint = endpoint
        self.user = user
        self.password = password
        self.connection = connection
        self.sessionStore = sessionStore
        self.pageSize = pageSize
        self.batchSize = batchSize
    }

    init(endpoint: URL, user: String, password: String) {
        self.init(endpoint: endpoint, user: user, password: password, connection: WebAPIConnection())
    }

    // MARK: - Session

    /// Logs in with ClientLogin, which checks the user name and password. When nothing answers
    /// as this API at the endpoint but FreshRSS's API does beneath it, that becomes the endpoint.
    /// The new session replaces the kept one.
    func logIn() async throws(WebAPIError) {
        do {
            try await logIn(at: endpoint)
        } catch where error.mayBeBeneath && endpoint.lastPathComponent != "greader.php" {
            let first = error
            let freshRSS = endpoint.appending(path: "api/greader.php")
            do {
                try await logIn(at: freshRSS)
            } catch .notTheService {
                // A moved server stays moved: the address beneath it is no API either.
                throw first
            }
            endpoint = freshRSS
        }
        guard let authToken, let sessionStore else { return }
        // Not keeping it only costs a login in the next process: a keyring that refuses is no failure.
        try? await sessionStore.secrets.save(GoogleReaderSession(endpoint: endpoint, authToken: authToken).text, for: sessionStore.key)
    }

    /// Takes up the session an earlier process kept, unless the server refused it; false when
    /// there is none. Requests that start together wait for the same lookup.
    private func resumeKeptSession() async -> Bool {
        guard let sessionStore else { return false }
        let lookup = keptSession ?? Task {
            // An unreadable keyring is a session to log in again, not a failure.
            try? await sessionStore.secrets.secret(for: sessionStore.key).flatMap(GoogleReaderSession.init(text:))
        }
        keptSession = lookup
        guard let session = await lookup.value else { return false }
        if authToken == nil {
            endpoint = session.endpoint
            authToken = session.authToken
        }
        return true
    }

    /// Forgets the session the server refused, here and in the secret store, so that no later
    /// process offers it again.
    private func dropSession() async {
        authToken = nil
        actionToken = nil
        keptSession = Task { nil }
        guard let sessionStore else { return }
        try? await sessionStore.secrets.remove(for: sessionStore.key)
    }

    private func logIn(at endpoint: URL) async throws(WebAPIError) {
        let url = endpoint.appending(path: "accounts/ClientLogin")
        let hop = try await connection.send(url, form: [("Email", user), ("Passwd", password)])
        switch hop.status {
        case 200:
            // Lines of KEY=value; Auth is the session token (SID and LSID are Google's leftovers).
            let lines = String(decoding: hop.body, as: UTF8.self).split(whereSeparator: \.isNewline)
            guard let auth = lines.first(where: { $0.hasPrefix("Auth=") })?.dropFirst(5), !auth.isEmpty else {
                throw .notTheService
            }
            authToken = String(auth)
            actionToken = nil
        case 401, 403:
            throw .unauthorized
        // FreshRSS deviation: with its API switched off every API address answers 503.
        case 503:
            throw .apiDisabled
        case 429:
            throw .rateLimited(until: hop.retryDate)
        // A web page redirecting to its login form; a redirect elsewhere is a moved server.
        case 300..<400:
            throw .redirect(hop, from: url, sameOrigin: .notTheService)
        // Nothing at this address.
        case 404, 405, 501:
            throw .notTheService
        default:
            throw .httpStatus(hop.status)
        }
    }

    /// The user's subscriptions with the folders they are filed under.
    func subscriptions() async throws(WebAPIError) -> [GoogleReaderSubscription] {
        let wire: GoogleReaderSubscriptionListWire = try decoded(try await call(["subscription", "list"], query: [("output", "json")]))
        return wire.subscriptions.map { subscription in
            let folders = (subscription.categories ?? []).compactMap { category -> GoogleReaderFolder? in
                guard let name = category.label ?? GoogleReaderStream.labelName(category.id) else { return nil }
                return GoogleReaderFolder(id: category.id, name: name)
            }
            // Google and Inoreader spell the feed's address into its stream id.
            let url = subscription.url.flatMap(URL.init(string:))
                ?? (subscription.id.hasPrefix("feed/") ? URL(string: String(subscription.id.dropFirst(5))) : nil)
            return GoogleReaderSubscription(id: subscription.id, title: subscription.title ?? url?.absoluteString ?? subscription.id,
                                            url: url, siteURL: subscription.htmlUrl.flatMap(URL.init(string:)), folders: folders)
        }
    }

    /// The folders `tag/list` names: the labels it marks `"type": "folder"` (FreshRSS, Inoreader),
    /// which are there even with no subscription in them. Labels it gives no type are left out, as
    /// nothing tells a folder from an item's label then; those subscriptions are filed under come
    /// with the subscriptions. Empty when the server has no `tag/list`.
    ///
    /// With them, the item labels it marks `"type": "tag"` by their names; nil when it gives its
    /// labels no type, as then nothing tells them from folders.
    func tags() async throws(WebAPIError) -> (folders: [GoogleReaderFolder], labels: [String]?) {
        let body: Data
        do {
            body = try await call(["tag", "list"], query: [("output", "json")])
        } catch .httpStatus(404), .httpStatus(405), .httpStatus(501) {
            return ([], nil)
        }
        let wire: GoogleReaderTagListWire = try decoded(body)
        var folders: [GoogleReaderFolder] = [], labels: [String] = []
        for tag in wire.tags {
            guard let name = GoogleReaderStream.labelName(tag.id) else { continue }
            switch tag.type {
            case "folder": folders.append(GoogleReaderFolder(id: tag.id, name: name))
            case "tag": labels.append(name)
            default: break
            }
        }
        return (folders, wire.tags.contains { $0.type != nil } ? labels : nil)
    }

    // MARK: - Items

    /// The ids of `stream`'s items, newest first: all of them, those without the state `excluding`,
    /// those with the state `including`, or only those the server first saw after `newerThan`.
    func itemIDs(stream: String, excluding: String? = nil, including: String? = nil, newerThan: Date? = nil,
                 beyondLimit: ListBeyondLimit = .fails) async throws(WebAPIError) -> [GoogleReaderItemID] {
        var all: [GoogleReaderItemID] = []
        var seen = Set<GoogleReaderItemID>()
        var continuation: String?
        while true {
            let page = try await itemIDsPage(stream: stream, excluding: excluding, including: including, newerThan: newerThan, continuation: continuation)
            let fresh = page.ids.filter { seen.insert($0).inserted }
            all += fresh
            if all.count > SyncLimits.listedIDs {
                guard beyondLimit == .isCut else { throw .tooManyIDs(SyncLimits.listedIDs) }
                return Array(all.prefix(SyncLimits.listedIDs))
            }
            guard let next = page.continuation, !fresh.isEmpty else { return all }
            continuation = Self.overlappingContinuation(next, after: page.ids)
        }
    }

    /// What `itemIDs` does with a list longer than `SyncLimits.listedIDs`: a state list fails, as
    /// part of it would mark the rest read; the new articles' list keeps its newest.
    enum ListBeyondLimit {
        case fails, isCut
    }

    /// One page of `itemIDs`, from `continuation`, and the continuation of the next page if any.
    func itemIDsPage(stream: String, excluding: String? = nil, including: String? = nil, newerThan: Date? = nil,
                     continuation: String? = nil) async throws(WebAPIError) -> (ids: [GoogleReaderItemID], continuation: String?) {
        var query = [("s", stream), ("n", String(pageSize))]
        if let excluding { query.append(("xt", excluding)) }
        if let including { query.append(("it", including)) }
        if let newerThan { query.append(("ot", String(Int64(newerThan.timeIntervalSince1970)))) }
        if let continuation { query.append(("c", continuation)) }
        return try Self.itemRefs(in: try await call(["stream", "items", "ids"], query: query))
    }

    /// The continuation to ask for after a page of `ids` that ended with `continuation`.
    ///
    /// FreshRSS deviation: its continuation is the page's last id in decimal, and it answers the
    /// next page with the items at or below that id after dropping the first row unseen. When the
    /// last item left a state-filtered stream in between (marked read by another client while
    /// paging with xt=read), the dropped row is the next good item. Continuing from the item before
    /// the last makes the dropped row one already received. An opaque continuation is sent as it came.
    static func overlappingContinuation(_ continuation: String, after ids: [GoogleReaderItemID]) -> String {
        guard ids.count >= 2, continuation == ids[ids.count - 1].description else { return continuation }
        return ids[ids.count - 2].description
    }

    /// The server's answer with the contents of the items `batch`, at most `batchSize` of them, undecoded.
    func itemsAnswer(_ batch: ArraySlice<GoogleReaderItemID>) async throws(WebAPIError) -> Data {
        // A POSTed form: FreshRSS answers a GET with 400.
        try await call(["stream", "items", "contents"], form: batch.map { ("i", $0.longForm) })
    }

    // MARK: - Changes

    /// Adds the state or label `adding` to the items `ids` and takes `removing` off, in batches.
    func editTag(_ ids: [GoogleReaderItemID], adding: String? = nil, removing: String? = nil) async throws(WebAPIError) {
        for batch in ids.chunked(batchSize) {
            var form = batch.map { ("i", $0.longForm) }
            if let adding { form.append(("a", adding)) }
            if let removing { form.append(("r", removing)) }
            // POSTed: FreshRSS answers edit-tag with GET parameters OK and changes nothing.
            try expectOK(try await call(["edit-tag"], form: form))
        }
    }

    /// Marks every item of `stream` that the server saw up to `seenUpTo` as read.
    ///
    /// `ts` is in microseconds: a value in seconds marks nothing, and none means "now" in whole
    /// seconds on FreshRSS, which leaves the items fetched this second unread.
    func markAllAsRead(stream: String, seenUpTo: Date) async throws(WebAPIError) {
        let microseconds = Int64((seenUpTo.timeIntervalSince1970 * 1_000_000).rounded(.down))
        try expectOK(try await call(["mark-all-as-read"], form: [("s", stream), ("ts", String(microseconds))]))
    }

    /// Subscribes to the feed at `url`, filed under `folder` when given, and returns its stream id.
    func subscribe(to url: URL, folder: String?) async throws(WebAPIError) -> String {
        // quickadd, unlike subscription/edit, says why a feed cannot be added.
        let body = try await call(["subscription", "quickadd"], form: [("quickadd", url.absoluteString)])
        let answer: GoogleReaderQuickAddWire = try decoded(body)
        guard let streamID = answer.streamId, (answer.numResults ?? 1) > 0 else {
            throw .refused(answer.error ?? "")
        }
        if let folder {
            try await move(streamID, to: folder, from: [])
        }
        return streamID
    }

    /// Files the subscription `streamID` under the folder `to` (none for nil) instead of `from`.
    func move(_ streamID: String, to folder: String?, from previous: [String]) async throws(WebAPIError) {
        var form = [("ac", "edit"), ("s", streamID)]
        if let folder { form.append(("a", GoogleReaderStream.label(folder))) }
        form += previous.filter { $0 != folder }.map { ("r", GoogleReaderStream.label($0)) }
        try expectOK(try await call(["subscription", "edit"], form: form))
    }

    /// Unsubscribes from the subscription `streamID`; FreshRSS deletes its items, starred ones too.
    func unsubscribe(_ streamID: String) async throws(WebAPIError) {
        try expectOK(try await call(["subscription", "edit"], form: [("ac", "unsubscribe"), ("s", streamID)]))
    }

    // MARK: - Requests

    /// Sends a request under `reader/api/0/`: a GET with `query`, or a POST of `form` with the action
    /// token. A 401 logs in again and fetches a new action token, once; the refused session
    /// token leaves the secret store, the new one takes its place.
    private func call(_ path: [String], query: [(String, String)] = [], form: [(String, String)]? = nil) async throws(WebAPIError) -> Data {
        for attempt in 0..<2 {
            if authToken == nil, await !resumeKeptSession() {
                try await logIn()
            }
            // After logging in, which may have found the API beneath a FreshRSS base address.
            var target = url(["reader", "api", "0"] + path)
            if !query.isEmpty {
                var components = URLComponents(url: target, resolvingAgainstBaseURL: false)!
                components.percentEncodedQuery = WebAPIConnection.formEncoded(query)
                target = components.url!
            }
            let headers = [("Authorization", "GoogleLogin auth=\(authToken ?? "")")]
            var fields = form
            if form != nil {
                guard let token = try await token(headers: headers) else {
                    await dropSession()
                    continue
                }
                fields?.append(("T", token))
            }
            let hop = try await connection.send(target, headers: headers, form: fields)
            switch hop.status {
            case 200..<300:
                return hop.body
            case 401 where attempt == 0:
                // Google-Bad-Token: true marks a stale action token; FreshRSS sends it for a stale
                // session token too, so both are fetched again.
                await dropSession()
            case 401:
                // The session of a new login refused too: no later process is to offer it.
                await dropSession()
                throw .unauthorized
            case 403:
                throw .unauthorized
            case 503:
                throw .apiDisabled
            case 429:
                throw .rateLimited(until: hop.retryDate)
            case 300..<400:
                throw .redirect(hop, from: target, sameOrigin: .httpStatus(hop.status))
            default:
                throw .httpStatus(hop.status)
            }
        }
        throw .unauthorized
    }

    /// The action token, fetched once per session; nil when the session token was refused.
    private func token(headers: [(String, String)]) async throws(WebAPIError) -> String? {
        if let actionToken { return actionToken }
        let hop = try await connection.send(url(["reader", "api", "0", "token"]), headers: headers)
        switch hop.status {
        case 200:
            let token = String(decoding: hop.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else { throw .malformedAnswer }
            actionToken = token
            return token
        case 401:
            return nil
        default:
            throw .httpStatus(hop.status)
        }
    }

    private func url(_ path: [String]) -> URL {
        path.reduce(endpoint) { $0.appending(path: $1) }
    }

    private func decoded<Value: Decodable>(_ body: Data) throws(WebAPIError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: body)
        } catch {
            throw .malformedAnswer
        }
    }

    private func expectOK(_ body: Data) throws(WebAPIError) {
        guard String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "OK" else {
            throw .malformedAnswer
        }
    }
}

extension Array {
    /// The array cut into consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
