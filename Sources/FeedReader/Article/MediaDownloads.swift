import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The enclosures being saved to the Downloads folder, by address. A download goes on while
/// other entries are read; the row of an entry shown again picks up its state.
@MainActor
final class MediaDownloads {
    /// Where one enclosure's download stands.
    enum State: Equatable {
        case idle
        case running(EnclosureDownload.Progress)
        case saved(URL)
        case cancelled
        /// Kept as the failure, worded when shown, so it follows a change of language.
        case failed(EnclosureDownload.Failure)
    }

    private var states: [URL: State] = [:]

    /// Whether this process cleared the copies of played files yet.
    private static var clearedCopies = false

    /// Clears away, off the main thread, the partial files a reader that was killed or crashed
    /// left in the Downloads folder, and, once per process before anything plays, the copies of
    /// played files it left in the cache.
    init() {
        let folder = Self.folder
        let copies = Self.clearedCopies ? nil : MediaPlayer.copiesFolder
        Self.clearedCopies = true
        Task.detached(priority: .background) {
            EnclosureDownload.removeAbandonedParts(in: folder)
            if let copies { try? FileManager.default.removeItem(at: copies) }
        }
    }

    private var tasks: [URL: Task<Void, Never>] = [:]
    /// The row showing each address now, told of every change.
    private var observers: [URL: (State) -> Void] = [:]

    func state(of url: URL) -> State { states[url] ?? .idle }

    /// Makes `observer` the one told about `url`'s download (a row of the entry shown).
    func observe(_ url: URL, _ observer: @escaping (State) -> Void) {
        observers[url] = observer
        observer(state(of: url))
    }

    /// Forgets every observer: the rows are gone; downloads go on.
    func removeObservers() {
        observers.removeAll()
    }

    /// The Downloads folder (XDG user dirs), else the home folder as GLib advises.
    static var folder: URL {
        let path = g_get_user_special_dir(G_USER_DIRECTORY_DOWNLOAD) ?? g_get_home_dir()
        return URL(fileURLWithPath: path.map { String(cString: $0) } ?? NSHomeDirectory(), isDirectory: true)
    }

    /// Starts saving `url` into the Downloads folder, unless it is being saved already.
    func start(_ url: URL) {
        if case .running = state(of: url) { return }
        set(.running(EnclosureDownload.Progress(received: 0, expected: nil)), for: url)
        let download = EnclosureDownload(url: url, into: Self.folder) { progress in
            Task { @MainActor [weak self] in
                guard let self, case .running = self.state(of: url) else { return }
                self.set(.running(progress), for: url)
            }
        }
        tasks[url] = Task { @MainActor [weak self] in
            let outcome: State
            do throws(EnclosureDownload.Failure) {
                outcome = .saved(try await download.start())
            } catch .cancelled {
                outcome = .cancelled
            } catch {
                outcome = .failed(error)
            }
            guard let self else { return }
            self.tasks[url] = nil
            self.set(outcome, for: url)
        }
    }

    /// Stops saving `url`; what had arrived is removed.
    func cancel(_ url: URL) {
        tasks[url]?.cancel()
    }

    private func set(_ state: State, for url: URL) {
        states[url] = state
        observers[url]?(state)
    }

    /// Why the download failed, in the user's language.
    static func sentence(for failure: EnclosureDownload.Failure, url: URL) -> String {
        let host = url.host ?? url.absoluteString
        switch failure {
        case .diskFull:
            return tr("There is not enough free space on the disk to save the file.")
        case let .wouldFillDisk(reserve):
            // TRANSLATORS: %@ is the free space a download leaves on the disk, such as "1.1 GB".
            return tr("The file was not saved: at least %@ must stay free on the disk.").filling(MediaDownloadRow.formatted(size: reserve))
        case let .refusedRedirect(target):
            return URL(string: target)?.isFileURL == true
                ? tr("The server redirected to a file on this computer, and the redirect was refused.")
                : tr("The server redirected to an address that cannot be used.")
        case let .noPermission(folder):
            // TRANSLATORS: %@ is the folder the file was to be saved in, such as /home/ada/Downloads.
            return tr("The file could not be saved: the folder %@ cannot be written to.").filling(folder)
        case let .httpStatus(status):
            let text = switch status {
            // TRANSLATORS: %d is an HTTP status such as 404.
            case 404, 410: tr("Nothing was found at this address (error %d).")
            // TRANSLATORS: %d is an HTTP status such as 403.
            case 401, 403, 407: tr("The server refused access to the file (error %d).")
            // TRANSLATORS: %d is an HTTP status such as 500.
            case 500...599: tr("The server had a problem (error %d).")
            // TRANSLATORS: %d is an HTTP status such as 400.
            default: tr("The server answered with error %d.")
            }
            return text.filling(count: status)
        case let .network(network):
            switch network {
            case .cannotFindHost:
                // TRANSLATORS: %@ is a server's name, such as "news.example.org".
                return tr("The server %@ could not be found. Check the address and your connection.").filling(host)
            case .connectionLost:
                // TRANSLATORS: %@ is a server's name, such as "news.example.org".
                return tr("The connection to %@ was lost.").filling(host)
            case .secureConnectionFailed:
                // TRANSLATORS: %@ is a server's name, such as "news.example.org".
                return tr("A secure connection to %@ could not be made.").filling(host)
            case .cannotConnect, .other:
                // TRANSLATORS: %@ is a server's name, such as "news.example.org".
                return tr("The server %@ could not be reached.").filling(host)
            }
        case .stalled:
            return tr("The server stopped sending the file.")
        case .cancelled:
            return tr("The download was cancelled.")
        case .fileSystem:
            return tr("The file could not be saved.")
        }
    }

    /// The system's or libcurl's own words, for the details a developer may want.
    static func details(for failure: EnclosureDownload.Failure) -> String? {
        switch failure {
        case let .fileSystem(message), let .network(.other(message)): message
        default: nil
        }
    }
}
