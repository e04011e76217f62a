import Foundation

/// A Google Reader API session as the secret store keeps it: the API's address the token was
/// given at (a FreshRSS base address becomes its API's at the first login) and the token, on two lines.
struct GoogleReaderSession: Sendable, Hashable {
    var endpoint: URL
    var authToken: String

    init(endpoint: URL, authToken: String) {
        self.endpoint = endpoint
        self.authToken = authToken
    }

    init?(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, let endpoint = URL(string: String(lines[0])), !lines[1].isEmpty else { return nil }
        self.init(endpoint: endpoint, authToken: String(lines[1]))
    }

    var text: String { endpoint.absoluteString + "\n" + authToken }
}
