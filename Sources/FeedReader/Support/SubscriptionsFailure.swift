import FeedCore
import Foundation

/// What the window and the command line say when importing or exporting subscriptions failed:
/// what did not happen, then why, in the user's language.
enum SubscriptionsFailure {
    /// Why importing `file` failed, saying that nothing was imported.
    static func importing(_ file: LocalFile, _ error: any Error) -> String {
        switch error {
        case let failure as SubscriptionFile.Failure:
            if case let .tooLarge(bytes) = failure {
                return file.displayPath + ": " + OPMLDocument.ReadError.tooLarge(bytes: bytes).sentence
            }
            // TRANSLATORS: %@ is the path of the file to import.
            return sentences(tr("The file %@ could not be read.").replacingOccurrences(of: "%@", with: file.displayPath),
                             FileProblem(failure, writing: false)?.sentence)
        case let failure as OPMLDocument.ReadError:
            return file.displayPath + ": " + failure.sentence
        default:
            return sentences(tr("The subscriptions could not be imported."), StoreProblem(error)?.sentence)
        }
    }

    /// Why exporting to `file` failed.
    static func exporting(_ file: LocalFile, _ error: any Error) -> String {
        // TRANSLATORS: %@ is the path of the file the subscriptions were to be written to.
        let failure = tr("The subscriptions could not be exported to %@.").replacingOccurrences(of: "%@", with: file.displayPath)
        if let error = error as? SubscriptionFile.Failure {
            return sentences(failure, FileProblem(error, writing: true)?.sentence)
        }
        return sentences(failure, StoreProblem(error)?.sentence)
    }

    private static func sentences(_ first: String, _ reason: String?) -> String {
        ([first] + [reason].compactMap { $0 }).joined(separator: " ")
    }
}

extension OPMLDocument.ReadError {
    /// Why a file could not be imported, saying that nothing was.
    var sentence: String {
        switch self {
        case let .malformed(line, _):
            // TRANSLATORS: %d is the line of the file where it stops being valid.
            tr("The file is broken at line %d, so nothing was imported.").replacingOccurrences(of: "%d", with: "\(line)")
        case .notOPML:
            tr("The file is not a subscription list (OPML), so nothing was imported.")
        case .declaresEntities:
            // TRANSLATORS: an XML entity declaration (<!ENTITY …>), which can make a small file expand without bound.
            tr("The file declares XML entities, which a subscription list never needs, so nothing was imported.")
        case .tooDeep:
            tr("The file nests its outlines too deeply to be a subscription list, so nothing was imported.")
        case .tooLarge:
            tr("The file is far too large to be a subscription list, so nothing was imported.")
        }
    }
}

/// Why a file could not be read or written, when the system said why in a way a person can act on.
enum FileProblem {
    case missingFile
    case missingFolder
    case denied
    case isFolder
    case diskFull

    init?(_ failure: SubscriptionFile.Failure, writing: Bool) {
        guard case let .system(code) = failure else { return nil }
        switch code {
        case ENOENT: self = writing ? .missingFolder : .missingFile
        case EACCES, EPERM, EROFS: self = .denied
        case EISDIR: self = .isFolder
        case ENOSPC, EDQUOT: self = .diskFull
        default: return nil
        }
    }

    /// The reason, in the user's language.
    var sentence: String {
        switch self {
        // TRANSLATORS: these follow "The file %@ could not be read." or "The subscriptions could not be exported to %@." and say why.
        case .missingFile: tr("There is no such file.")
        case .missingFolder: tr("Its folder does not exist.")
        case .denied: tr("You do not have permission.")
        case .isFolder: tr("It is a folder, not a file.")
        case .diskFull: tr("The disk is full.")
        }
    }
}

/// Why the feed database refused a write, as far as a person can act on it.
enum StoreProblem {
    case busy
    case diskFull
    case readOnly
    case damaged

    init?(_ error: any Error) {
        switch error as? FeedStoreError {
        case .busy: self = .busy
        case .diskFull: self = .diskFull
        case .readOnly: self = .readOnly
        case .damaged: self = .damaged
        default: return nil
        }
    }

    /// The reason, in the user's language.
    var sentence: String {
        switch self {
        // TRANSLATORS: these follow a sentence saying what could not be saved, and say why.
        case .busy: tr("Another program kept the feed database busy for too long; try again later.")
        case .diskFull: tr("The disk is full.")
        case .readOnly: tr("The feed database cannot be written to.")
        case .damaged: tr("The feed database is damaged; restart Feed Reader to repair it.")
        }
    }
}
