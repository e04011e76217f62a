import Foundation

/// The result of fetching one feed; failures are values so one bad feed never stops the others.
public struct FetchResult: Sendable {
    /// The request this answers.
    public var request: FeedRequest
    /// What happened.
    public var outcome: FetchOutcome
    /// The feed's new address when the server moved it permanently (301 or 308), so it can be stored.
    public var permanentRedirect: URL?
    /// When the server wants to be asked again, from the last answer's headers.
    public var directives: ServerDirectives

    /// Creates a result.
    public init(request: FeedRequest, outcome: FetchOutcome, permanentRedirect: URL? = nil,
                directives: ServerDirectives = ServerDirectives()) {
        self.request = request
        self.outcome = outcome
        self.permanentRedirect = permanentRedirect
        self.directives = directives
    }

    /// The parsed feed, when the fetch brought new content.
    public var feed: ParsedFeed? {
        if case let .fetched(feed, _) = outcome { return feed }
        return nil
    }

    /// The error, when the fetch failed.
    public var error: FetchError? {
        if case let .failed(error) = outcome { return error }
        return nil
    }
}

/// What a fetch produced.
public enum FetchOutcome: Sendable {
    /// New content, with the validators to send next time.
    case fetched(ParsedFeed, validators: CacheValidators)
    /// The server answered 304: nothing changed since the validators were issued.
    case notModified
    /// The fetch or the parse failed.
    case failed(FetchError)
}
