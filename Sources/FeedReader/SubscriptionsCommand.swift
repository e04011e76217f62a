import FeedCore
import Foundation

/// `feed-reader --import FILE` and `feed-reader --export FILE`: the subscription list in and out
/// of the user's library as OPML, without opening a window, saying what happened in the same
/// sentences as the window, in the user's language.
enum SubscriptionsCommand {
    case importing(URL)
    case exporting(URL)

    /// Does the work, printing what it did on standard output and problems on standard error;
    /// returns the exit status.
    @MainActor
    func run() async -> Int32 {
        let library: FeedLibrary
        let databaseURL = FeedStore.databaseURL()
        do {
            let (store, notice) = try await FeedStore.openHealing(at: databaseURL)
            if let notice {
                Self.say("feed-reader: " + MainWindow.storageMessage(notice), to: .standardError)
                // The library is only in memory: an import would be lost at exit.
                if case .importing = self, notice.keepsNoChanges { return 1 }
            }
            library = FeedLibrary(store: store)
        } catch {
            // TRANSLATORS: %@ is the database file's path.
            return Self.fail(tr("The feed database at %@ could not be opened.").filling(databaseURL.path))
        }
        switch self {
        case let .importing(file):
            return await Self.importSubscriptions(from: file, into: library)
        case let .exporting(file):
            do {
                try await library.exportSubscriptions().write(to: file, options: .atomic)
                let count = try await library.store.feeds().count
                Self.say(ImportBar.exported(count, to: file))
                return 0
            } catch {
                // TRANSLATORS: %@ is the path of the file the subscriptions were to be written to.
                let text = tr("The subscriptions could not be exported to %@.").filling(file.path)
                return Self.fail(text, because: FileProblem(error, writing: true))
            }
        }
    }

    @MainActor
    private static func importSubscriptions(from file: URL, into library: FeedLibrary) async -> Int32 {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            // TRANSLATORS: %@ is the path of the file to import.
            return fail(tr("The file %@ could not be read.").filling(file.path),
                        because: FileProblem(error, writing: false))
        }
        do {
            let report = try await library.importSubscriptions(from: data) { done, total in
                guard total > 0 else { return }
                say(await ImportBar.progress(done: done, total: total), to: .standardError)
            }
            say(ImportBar.summary(of: report))
            return 0
        } catch let error as OPMLDocument.ReadError {
            return fail(file.path + ": " + error.reason.sentence)
        } catch {
            return fail(tr("The subscriptions could not be imported."))
        }
    }

    /// Writes `text` without the window's bidi isolates: a terminal lays out no paragraphs, and a
    /// path copied from it, or read by a script, must be the path alone.
    private static func say(_ text: String, to handle: FileHandle = .standardOutput) {
        let plain = text.replacingOccurrences(of: "\u{2068}", with: "").replacingOccurrences(of: "\u{2069}", with: "")
        handle.write(Data((plain + "\n").utf8))
    }

    private static func fail(_ message: String, because problem: FileProblem? = nil) -> Int32 {
        say("feed-reader: " + ([message] + [problem?.sentence].compactMap { $0 }).joined(separator: " "), to: .standardError)
        return 1
    }
}

extension StorageNotice {
    /// Whether the library opened despite this keeps nothing written to it after the program ends.
    var keepsNoChanges: Bool {
        switch self {
        case .replacedDamagedDatabase: false
        case .folderReadOnly, .folderUnavailable: true
        }
    }
}

/// Why a file could not be read or written, when the system said why in a way a person can act on.
enum FileProblem {
    case missingFile
    case missingFolder
    case denied
    case isFolder

    init?(_ error: any Error, writing: Bool) {
        let code = Self.posixCode(of: error)
        switch code {
        case ENOENT: self = writing ? .missingFolder : .missingFile
        case EACCES, EPERM, EROFS: self = .denied
        case EISDIR: self = .isFolder
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
        }
    }

    /// The errno under a Foundation file error, if it carries one.
    private static func posixCode(of error: any Error) -> Int32? {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error { return posixCode(of: underlying) }
        guard error.domain == NSCocoaErrorDomain else { return nil }
        return switch CocoaError.Code(rawValue: error.code) {
        case .fileReadNoSuchFile, .fileNoSuchFile: ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission, .fileWriteVolumeReadOnly: EACCES
        default: nil
        }
    }
}
