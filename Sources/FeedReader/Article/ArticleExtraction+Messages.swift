import CGtk
import FeedCore

extension ArticleExtractionError {
    /// What went wrong, as a sentence in the current language; the feed's own text stays shown.
    @MainActor var sentence: String {
        switch self {
        case let .unreadablePage(error):
            switch error {
            case .tooLarge:
                tr("The entry’s web page is too large to be read.")
            case .invalidFeed:
                tr("The entry’s web page could not be read.")
            default:
                // TRANSLATORS: %@ is why the page could not be read, a sentence such as "The server took too long to answer."
                tr("The entry’s web page could not be read. %@").filling(phrase: ErrorReason(error).sentence)
            }
        case .noArticle:
            tr("No readable article was found on the entry’s web page.")
        case .timedOut:
            tr("Finding the article on the entry’s web page took too long.")
        case .extractionFailed:
            tr("The article could not be taken from the entry’s web page.")
        case .webKitMissing:
            tr("The web engine (WebKitGTK) could not be loaded, so no article can be taken from a web page.")
        case .resourcesMissing:
            AppResources.missingMessage
        }
    }

    /// WebKit's own words, for the command line after the sentence; nil when the sentence says it all.
    var technicalDetails: String? {
        switch self {
        case let .extractionFailed(message): message
        case let .unreadablePage(error): error.description
        default: nil
        }
    }
}
