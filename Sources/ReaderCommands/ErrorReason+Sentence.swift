import Foundation
import FeedCore

// The one place an error's code becomes words: in the current language each time it is shown,
// so a tooltip or banner follows a language switch. FeedCore's English texts (`description`)
// are for logs and the command line's JSON; a user sees them only as technical details, and
// never the words of a reason this version cannot read.

extension ErrorReason {
    /// What went wrong, as a sentence in the current language.
    public var sentence: String {
        switch code {
        case .httpStatus:
            Self.httpSentence(status: Int(self[.status] ?? "") ?? 0)
        case .timedOut:
            tr("The server took too long to answer.")
        case .tooLarge:
            tr("The feed is too large to be read.")
        case .unsupportedEncoding:
            tr("The server sent the feed compressed in a way that cannot be read.")
        case .corruptEncoding:
            tr("The server sent damaged data.")
        case .tooManyRedirects:
            tr("The server redirected too many times.")
        case .badRedirect:
            tr("The server redirected to an address that cannot be used.")
        case .redirectToLocalFile:
            tr("The server redirected to a file on this computer, and the redirect was refused.")
        case .unsupportedScheme:
            // TRANSLATORS: %@ is the kind of address, such as "javascript" or "ftp".
            tr("Addresses of the kind “%@:” cannot be read. Only web addresses (http and https) and files can.").filling(self[.scheme] ?? "")
        case .localFileRefused:
            tr("A link from a feed or a server cannot open a file on this computer.")
        case .fileNotFound:
            // TRANSLATORS: %@ is a file's path.
            tr("The file %@ does not exist.").filling(self[.path] ?? "")
        case .unreadableFile:
            // TRANSLATORS: %@ is the path of the file to import.
            tr("The file %@ could not be read.").filling(self[.path] ?? "")
        case .notAFile:
            self[.kind] == "directory"
                // TRANSLATORS: %@ is a path that names a folder where a feed file was expected.
                ? tr("%@ is a folder, not a file.").filling(self[.path] ?? "")
                // TRANSLATORS: %@ is a path that names a pipe, device or socket where a feed file was expected.
                : tr("%@ is not a regular file.").filling(self[.path] ?? "")
        case .hostNotFound:
            // TRANSLATORS: %@ is a server's name, such as "news.example.org".
            tr("The server %@ could not be found. Check the address and your connection.").filling(self[.host] ?? "")
        case .cannotConnect, .network:
            // TRANSLATORS: %@ is a server's name, such as "news.example.org".
            tr("The server %@ could not be reached.").filling(self[.host] ?? "")
        case .connectionLost:
            // TRANSLATORS: %@ is a server's name, such as "news.example.org".
            tr("The connection to %@ was lost.").filling(self[.host] ?? "")
        case .secureConnectionFailed:
            // TRANSLATORS: %@ is a server's name, such as "news.example.org".
            tr("A secure connection to %@ could not be made.").filling(self[.host] ?? "")
        case .cancelled:
            tr("The download was cancelled.")
        case .malformedXML:
            // TRANSLATORS: %d is the line of the feed where it stops being valid.
            tr("The feed is broken at line %d.").filling(count: Int(self[.line] ?? "") ?? 1)
        case .malformedJSON:
            tr("The feed is not valid JSON.")
        case .textBeforeDeclaration:
            tr("Text before the start of the feed was ignored.")
        case .bareAmpersand:
            tr("A stray “&” was read as text.")
        case .htmlEntities:
            tr("HTML character names were read as HTML reads them.")
        case .undefinedEntity:
            tr("An unknown character name was kept as text.")
        case .doubleHyphenInComment:
            tr("A comment in the feed contains “--”.")
        case .unclosedCDATA:
            tr("A block of raw text (CDATA) was not closed.")
        case .doctypeIgnored:
            tr("The document type declaration (DOCTYPE) was ignored.")
        case .entityDeclarationsIgnored:
            tr("Character names declared in the DOCTYPE were ignored.")
        case .unknownEncoding:
            // TRANSLATORS: %@ is the name of a character encoding as the feed gives it, such as "latin-9x".
            tr("The character encoding “%@” is unknown, so the feed was read as UTF-8.").filling(self[.encoding] ?? "")
        case .undeclaredEncoding:
            // TRANSLATORS: %@ is the name of a character encoding, such as "windows-1251".
            tr("The feed does not name its character encoding, so it was read as %@.").filling(self[.encoding] ?? "")
        case .notUTF8:
            tr("Some characters were not valid UTF-8 and were read as Windows-1252.")
        case .repaired:
            tr("A mistake in the feed was mended.")
        case .keyringUnavailable: tr("No Secret Service (such as GNOME Keyring or KWallet) is running to keep the password safe.")
        case .keyringLocked: tr("The keyring is locked.")
        case .keyringFailed: tr("The keyring could not be used.")
        case .wrongCredentials: tr("The server did not accept the user name or password.")
        case .apiDisabled where self[.service] == TinyTinyRSSService.kind.rawValue:
            tr("API access is switched off for this user. Switch on “Enable API” in the Preferences of Tiny Tiny RSS, then try again.")
        case .apiDisabled: tr("API access is switched off for this user. Switch it on in the server’s settings, then try again.")
        case .notThisKindOfServer:
            // TRANSLATORS: %@ is the service's name, such as "Tiny Tiny RSS".
            tr("No %@ server answers at this address.").filling(self[.name] ?? "")
        case .tls: tr("No secure connection could be made to the server: its certificate or encryption was refused.")
        case .unreachable: tr("The server could not be reached. Check the address and the network connection.")
        case .timeout: tr("The server did not answer in time.")
        case .badResponse: tr("The server’s answer could not be understood.")
        case .serverError: tr("The server reported an error.")
        case .subscriptionRefused: tr("The server refused to subscribe to the feed.")
        case .moved:
            // TRANSLATORS: %@ is the address the server sends the account's requests to.
            tr("The server redirects to %@: update the account’s address.").filling(self[.url] ?? "?")
        case .rateLimited:
            if let retryAfter = self[.date].flatMap({ try? Date($0, strategy: .iso8601) }) {
                // TRANSLATORS: %@ is a date and time, such as "Dec 6, 14:30".
                tr("The server asks to wait: try again after %@.")
                    .filling(phrase: retryAfter.formatted(.dateTime.month(.abbreviated).day().hour().minute()))
            } else {
                tr("The server asks to wait: try again later.")
            }
        case .notAFeed:
            tr("This is not a feed.")
        case .invalidAddress:
            // TRANSLATORS: %@ is what was typed as a feed's address.
            tr("“%@” is not a web address.").filling(self[.text] ?? "")
        case .alreadySubscribed:
            tr("You are already subscribed to this feed.")
        case .noFeedFound:
            tr("No feed was found at this address.")
        case .opmlMalformed:
            // TRANSLATORS: %d is the line of the file where it stops being valid.
            tr("The file is broken at line %d, so nothing was imported.").filling(count: Int(self[.line] ?? "") ?? 1)
        case .notOPML:
            tr("The file is not a subscription list (OPML), so nothing was imported.")
        case .opmlDeclaresEntities:
            // TRANSLATORS: an XML entity declaration (<!ENTITY …>), which can make a small file expand without bound.
            tr("The file declares XML entities, which a subscription list never needs, so nothing was imported.")
        case .opmlTooDeep:
            tr("The file nests its outlines too deeply to be a subscription list, so nothing was imported.")
        case .opmlTooLarge:
            tr("The file is far too large to be a subscription list, so nothing was imported.")
        case .feedNotFound:
            tr("The feed is no longer in your subscriptions.")
        case .entryNotFound:
            tr("The entry is no longer stored.")
        case .folderExists:
            // TRANSLATORS: %@ is a folder's name.
            tr("There is already a folder named “%@”.").filling(self[.name] ?? "")
        case .folderInsideItself:
            tr("A folder cannot be moved into itself or into a folder inside it.")
        case .databaseDamaged:
            // TRANSLATORS: "Feed Reader" is the app's name: write it as you translated "Feed Reader" for the window title.
            tr("The feed database is damaged; restart Feed Reader to repair it.")
        case .databaseBusy:
            tr("Another program kept the feed database busy for too long; try again later.")
        case .diskFull:
            tr("The disk is full.")
        case .databaseReadOnly:
            tr("The feed database cannot be written to.")
        case .accountExists:
            tr("This account has been added already.")
        case .accountNotFound:
            tr("There is no such account.")
        case .folderNotInAccount:
            tr("This folder does not belong to the account.")
        case .storageFailed:
            tr("The feed database could not be used.")
        case .ruleMalformed:
            // TRANSLATORS: %d is a line of a rule's text form (docs/rules.md); the line itself follows.
            tr("Line %d of the rule cannot be read:").filling(count: Int(self[.line] ?? "") ?? 1) + " " + String.isolated(self[.text] ?? "")
        case .ruleIncomplete:
            tr("A rule needs at least one condition and one action.")
        case .ruleInvalidPattern:
            // TRANSLATORS: %1$@ is a regular expression, %2$@ the position of the character where it goes wrong.
            tr("The regular expression “%1$@” is not valid at character %2$@.").filling(self[.text] ?? "", self[.column] ?? "1")
        case .rulePatternTooComplex:
            // TRANSLATORS: %@ is a regular expression.
            tr("The regular expression “%@” takes too long to match; make it simpler.").filling(self[.text] ?? "")
        case .ruleNotFound:
            tr("There is no such rule.")
        case .labelEmptyName:
            tr("A label needs a name.")
        case .labelNameTooLong:
            // TRANSLATORS: %d is the most characters a label's name may have.
            trn("A label's name may have at most %d character.", "A label's name may have at most %d characters.",
                Int(self[.limit] ?? "") ?? 190).filling(count: Int(self[.limit] ?? "") ?? 190)
        case .labelExists:
            // TRANSLATORS: %@ is a label's name.
            tr("There is a label named “%@” already.").filling(self[.name] ?? "")
        case .labelNotFound:
            // TRANSLATORS: %@ is a label's name.
            tr("There is no label named “%@”.").filling(self[.name] ?? "")
        case .feedIntervalTooShort:
            // TRANSLATORS: %d is the shortest refresh interval a feed may have, in minutes.
            trn("A feed is refreshed at most every minute.", "A feed is refreshed at most every %d minutes.",
                Int(self[.limit] ?? "") ?? 5).filling(count: Int(self[.limit] ?? "") ?? 5)
        case .feedRetentionTooShort:
            tr("Entries are kept for at least a day, and at least one of them.")
        case .feedInvalidUserAgent:
            tr("The User-Agent must be one line of plain ASCII characters.")
        case .feedInvalidUserName:
            tr("The user name cannot be empty or contain a colon.")
        case .unrecorded:
            tr("The reason is no longer known; it will be shown again after the next refresh.")
        }
    }

    /// Why the feed database refused a change, when it is a refusal a person can act on (busy,
    /// full, read-only, damaged); nil for other errors.
    public static func storeRefusal(_ error: any Error) -> String? { storeRefusal(ErrorReason(error)) }

    /// Why the feed database refused a change, when `reason` is one a person can act on.
    public static func storeRefusal(_ reason: ErrorReason) -> String? {
        switch reason.code {
        case .databaseBusy, .diskFull, .databaseReadOnly, .databaseDamaged: return reason.sentence
        default: return nil
        }
    }

    /// The feed database could not be read: why, when a person can act on it.
    public static func readFailure(_ error: any Error) -> String {
        [tr("The feed database could not be read."), storeRefusal(error)].compactMap { $0 }.joined(separator: " ")
    }

    /// The feed database refused a change: why, when a person can act on it.
    public static func changeFailure(_ error: any Error) -> String {
        changeFailure(ErrorReason(error))
    }

    /// The feed database refused a change for `reason`, in words.
    public static func changeFailure(_ reason: ErrorReason) -> String {
        [tr("The feed database could not be changed."), storeRefusal(reason)].compactMap { $0 }.joined(separator: " ")
    }

    /// An HTTP error status in words a reader can act on, with the number for whoever they ask for help.
    private static func httpSentence(status: Int) -> String {
        let text = switch status {
        // TRANSLATORS: %d is an HTTP status such as 404.
        case 404, 410: tr("Nothing was found at this address (error %d).")
        // TRANSLATORS: %d is an HTTP status such as 403.
        case 401: tr("The server asks for a user name and password (error %d). Enter them in the feed’s Properties.")
        // TRANSLATORS: %d is an HTTP status such as 403.
        case 403, 407: tr("The server refused access to the feed (error %d).")
        // TRANSLATORS: %d is an HTTP status such as 503.
        case 429, 503: tr("The server is busy or down for maintenance (error %d).")
        // TRANSLATORS: %d is an HTTP status such as 500.
        case 500...599: tr("The server had a problem (error %d).")
        // TRANSLATORS: %d is an HTTP status such as 400.
        default: tr("The server answered with error %d.")
        }
        return text.filling(count: status)
    }
}

extension ErrorReason {
    /// What went wrong while subscribing to `address`, as the Add Feed dialog says it: what it
    /// means for a person about to subscribe and what they can do, never the protocol's words.
    public func sentenceWhileSubscribing(to address: String) -> String {
        // The site's name in the address typed, or the address itself when it has none.
        let site = FeedLibrary.feedURL(from: address)?.host ?? address
        switch code {
        case .invalidAddress:
            return tr("This is not a web address.")
        case .alreadySubscribed:
            return tr("You are already subscribed to this feed.")
        case .noFeedFound:
            return tr("No feed found at this address.")
        case .httpStatus:
            switch Int(self[.status] ?? "") ?? 0 {
            case 404, 410:
                return tr("No feed found at this address.")
            case 401, 403, 407:
                return tr("The site does not allow reading this address.")
            case let status where status == 429 || status >= 500:
                // TRANSLATORS: %@ is the name of the web site, such as example.org.
                return tr("%@ has a problem right now. Try again later.").filling(site)
            default:
                return tr("The feed at this address could not be read.")
            }
        case .hostNotFound, .cannotConnect, .connectionLost, .secureConnectionFailed, .network, .timedOut:
            // TRANSLATORS: %@ is the name of the web site, such as example.org.
            return tr("Could not reach %@ — check the address or your connection.").filling(site)
        case .tooLarge:
            return tr("The feed at this address is too large to read.")
        case .fileNotFound:
            return tr("There is no file at this address.")
        case .unreadableFile, .notAFile:
            return tr("The file at this address could not be read.")
        case .unsupportedEncoding, .corruptEncoding, .tooManyRedirects, .badRedirect, .redirectToLocalFile, .unsupportedScheme,
             .localFileRefused, .malformedXML, .malformedJSON, .notAFeed, .cancelled,
             .textBeforeDeclaration, .bareAmpersand, .htmlEntities, .undefinedEntity, .doubleHyphenInComment, .unclosedCDATA,
             .doctypeIgnored, .entityDeclarationsIgnored, .unknownEncoding, .undeclaredEncoding, .notUTF8, .repaired,
             .wrongCredentials, .apiDisabled, .notThisKindOfServer, .tls, .unreachable, .timeout, .badResponse, .serverError,
             .subscriptionRefused, .moved, .rateLimited, .keyringUnavailable, .keyringLocked, .keyringFailed,
             .opmlMalformed, .notOPML, .opmlDeclaresEntities, .opmlTooDeep, .opmlTooLarge:
            return tr("The feed at this address could not be read.")
        case .feedNotFound, .entryNotFound, .folderExists, .folderInsideItself, .databaseDamaged, .databaseBusy, .diskFull,
             .databaseReadOnly, .accountExists, .accountNotFound, .folderNotInAccount, .storageFailed, .unrecorded,
             .ruleMalformed, .ruleIncomplete, .ruleInvalidPattern, .rulePatternTooComplex, .ruleNotFound,
             .feedIntervalTooShort, .feedRetentionTooShort, .feedInvalidUserAgent, .feedInvalidUserName,
             .labelEmptyName, .labelNameTooLong, .labelExists, .labelNotFound:
            // The feed was read, but the store could not keep it.
            return tr("The subscription could not be saved.")
        }
    }
}
