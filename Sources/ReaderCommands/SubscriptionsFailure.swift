import FeedCore
import Foundation

/// What the window and the command line say when importing or exporting subscriptions failed:
/// what did not happen, then why, in the user's language.
public enum SubscriptionsFailure {
    /// Why importing `file` failed, saying that nothing was imported.
    public static func importing(_ file: LocalFile, _ error: any Error) -> String {
        switch error {
        case let failure as SubscriptionFile.Failure:
            if case let .tooLarge(bytes) = failure {
                return String.isolated(file.displayName) + ": " + OPMLDocument.ReadError.tooLarge(bytes: bytes).reason.sentence
            }
            // TRANSLATORS: %@ is the path of the file to import.
            return sentences(tr("The file %@ could not be read.").filling(file.displayName),
                             FileProblem(failure, writing: false)?.sentence)
        case let failure as OPMLDocument.ReadError:
            return String.isolated(file.displayName) + ": " + failure.reason.sentence
        default:
            return sentences(tr("The subscriptions could not be imported."), ErrorReason.storeRefusal(error))
        }
    }

    /// Why exporting to `file` failed.
    public static func exporting(_ file: LocalFile, _ error: any Error) -> String {
        // TRANSLATORS: %@ is the path of the file the subscriptions were to be written to.
        let failure = tr("The subscriptions could not be exported to %@.").filling(file.displayName)
        if let error = error as? SubscriptionFile.Failure {
            return sentences(failure, FileProblem(error, writing: true)?.sentence)
        }
        return sentences(failure, ErrorReason.storeRefusal(error))
    }

    /// `first`, then `reason` when there is one.
    public static func sentences(_ first: String, _ reason: String?) -> String {
        ([first] + [reason].compactMap { $0 }).joined(separator: " ")
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
