import FeedCore
import Foundation
import RefreshGtk

extension AddFeedDialog {
    /// Why `address` could not be added, in a person's words: what it means for them and what
    /// they can do about it, never the protocol's own words.
    static func problem(_ error: FeedLibrary.SubscribeError, address: String) -> String {
        switch error {
        case .invalidAddress:
            tr("This is not a web address.")
        case .alreadySubscribed:
            tr("You are already subscribed to this feed.")
        case .noFeedFound:
            tr("No feed found at this address.")
        case .storage:
            tr("The subscription could not be saved.")
        case let .fetchFailed(failure):
            problem(failure, address: address)
        }
    }

    private static func problem(_ failure: FetchError, address: String) -> String {
        switch failure {
        case .httpStatus(404), .httpStatus(410):
            return tr("No feed found at this address.")
        case .httpStatus(401), .httpStatus(403), .httpStatus(407):
            return tr("The site does not allow reading this address.")
        case let .httpStatus(code) where code == 429 || code >= 500:
            // TRANSLATORS: %@ is the name of the web site, such as example.org.
            return tr("%@ has a problem right now. Try again later.").filling(host(of: address))
        case .network, .timedOut:
            // TRANSLATORS: %@ is the name of the web site, such as example.org.
            return tr("Could not reach %@ — check the address or your connection.").filling(host(of: address))
        case .tooLarge:
            return tr("The feed at this address is too large to read.")
        case .fileNotFound:
            return tr("There is no file at this address.")
        case .unreadableFile, .notAFile:
            return tr("The file at this address could not be read.")
        case .httpStatus, .unsupportedEncoding, .corruptEncoding, .tooManyRedirects, .badRedirect, .unsupportedScheme,
             .invalidFeed, .cancelled:
            return tr("The feed at this address could not be read.")
        }
    }

    /// The site's name in `address`, or the address itself when it has none.
    private static func host(of address: String) -> String {
        FeedLibrary.feedURL(from: address)?.host ?? address
    }
}
