import CCurl
import Foundation

/// Saves an enclosure into a folder (the Downloads folder in the app) under a name no existing
/// file has, reporting progress, and leaving nothing behind when cancelled or failed.
///
/// The body goes to a hidden temporary file beside the destination; only a complete file takes
/// its final name, so a crash or a cancel never leaves a truncated file that looks whole.
public final class EnclosureDownload: CurlReceiver, @unchecked Sendable {
    /// How much has arrived.
    public struct Progress: Sendable, Equatable {
        public var received: Int64
        /// The size the server announced, if it did.
        public var expected: Int64?

        public init(received: Int64, expected: Int64?) {
            self.received = received
            self.expected = expected
        }

        /// The part done, from 0 to 1, when the size is known.
        public var fraction: Double? {
            guard let expected, expected > 0 else { return nil }
            return min(1, Double(received) / Double(expected))
        }
    }

    /// Why a download did not save a file.
    public enum Failure: Error, Sendable, Equatable {
        /// The disk (or the user's quota) has no room left.
        case diskFull
        /// The file would leave less than `reserve` bytes free on the disk: its announced length
        /// did not fit, or it kept coming until that point.
        case wouldFillDisk(reserve: Int64)
        /// A redirect pointed outside http and https, to `target`; a local file above all.
        case refusedRedirect(target: String)
        /// The folder cannot be written to.
        case noPermission(folder: String)
        /// The server answered with an HTTP error.
        case httpStatus(Int)
        /// The connection failed.
        case network(NetworkFailure)
        /// Nothing arrived for `stallTimeout`.
        case stalled
        /// The download was cancelled.
        case cancelled
        /// Another error from the file system, in its own words.
        case fileSystem(String)
    }

    /// The longest the server may send nothing before the download is given up.
    static let stallTimeout = 60
    /// The start of a partial file's name: hidden, and known to `removeAbandonedParts(in:)`.
    static let partPrefix = ".feed-reader-download-"
    /// How often, in bytes written, the free space is measured again.
    static let spaceCheckInterval: Int64 = 1 << 20

    /// The free space a download leaves on its disk: 1 GB, or 5 % of a disk over 20 GB. An
    /// endless or lying server would otherwise fill the disk, and every program writing to it
    /// (the reader's own database too) would fail.
    static func standardReserve(capacity: Int64) -> Int64 {
        max(1 << 30, capacity / 20)
    }

    private let url: URL
    private let folder: URL
    private let progress: @Sendable (Progress) -> Void
    private let transfer: CurlTransfer
    // Touched only on the transfer's thread once it runs.
    private var status = 0
    private var expected: Int64?
    private var received: Int64 = 0
    private var lastReport = ContinuousClock.now
    private var file: Int32 = -1
    private var writeFailure: Failure?
    /// The free space to leave, when a test sets it; else `standardReserve`.
    private let reserveOverride: Int64?
    private var reserve: Int64 = 0
    private var nextSpaceCheck: Int64 = 0
    /// The last response's `Location`, to tell a refused redirect.
    private var location: String?

    /// Prepares the download of `url` into `folder`; `progress` is called on the transfer's thread.
    public convenience init(url: URL, into folder: URL, userAgent: String = "feed-reader/1.0 (FeedCore)",
                            progress: @escaping @Sendable (Progress) -> Void) {
        self.init(url: url, into: folder, userAgent: userAgent, reserve: nil, progress: progress)
    }

    /// Prepares the download, leaving `reserve` bytes free on the disk rather than the standard reserve.
    init(url: URL, into folder: URL, userAgent: String = "feed-reader/1.0 (FeedCore)", reserve: Int64?,
         progress: @escaping @Sendable (Progress) -> Void) {
        reserveOverride = reserve
        self.url = url
        self.folder = folder
        self.progress = progress
        transfer = CurlTransfer(url: url, userAgent: userAgent)
        let easy = transfer.easy
        ccurl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        ccurl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        ccurl_setopt_long(easy, CURLOPT_MAXREDIRS, 10)
        ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT, 30)
        // A file may take hours on a slow line: only a connection that stalls is given up.
        ccurl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
        ccurl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, Self.stallTimeout)
    }

    /// The name the file is saved as: the address's last part, without anything a path could
    /// misread, else "download". Format characters (Unicode's Cf) are dropped: U+202E would show
    /// "evil\u{202E}piz.sh" as "evilhs.zip" in the list and in any file manager.
    public static func fileName(for url: URL) -> String {
        let component = url.lastPathComponent == "/" ? "" : url.lastPathComponent
        let last = component.removingPercentEncoding ?? component
        var scalars = String.UnicodeScalarView()
        for scalar in last.unicodeScalars where scalar.properties.generalCategory != .format {
            let misread = scalar == "/" || scalar.properties.generalCategory == .control
            scalars.append(misread ? "_" : scalar)
        }
        let cleaned = String(scalars).trimmingCharacters(in: .whitespaces)
        let visible = String(cleaned.drop { $0 == "." })
        return visible.isEmpty ? "download" : String(visible.prefix(200))
    }

    /// The `attempt`th name tried for `name`: "episode.mp3", then "episode (2).mp3" and so on.
    static func candidate(_ name: String, attempt: Int) -> String {
        guard attempt > 1 else { return name }
        let base = (name as NSString).deletingPathExtension
        let suffix = (name as NSString).pathExtension
        return suffix.isEmpty ? "\(base) (\(attempt))" : "\(base) (\(attempt)).\(suffix)"
    }

    /// Downloads the file and returns where it was saved; cancelling the task stops it at once
    /// and removes what had arrived.
    public func start() async throws(Failure) -> URL {
        try await transfer.onItsOwnThread { self.run() }.get()
    }

    private func run() -> Result<URL, Failure> {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch let error as CocoaError where error.code == .fileWriteOutOfSpace {
            return .failure(.diskFull)
        } catch let error as CocoaError where [.fileWriteNoPermission, .fileWriteVolumeReadOnly].contains(error.code) {
            return .failure(.noPermission(folder: folder.path))
        } catch {
            return .failure(.fileSystem(error.localizedDescription))
        }
        var template = Array(folder.appendingPathComponent(Self.partPrefix + "XXXXXX").path.utf8CString)
        file = mkstemp(&template)
        guard file >= 0 else { return .failure(Self.failure(errno: errno, folder: folder)) }
        // Held while the download runs, so that `removeAbandonedParts` leaves this part alone.
        flock(file, LOCK_EX)
        var disk = statvfs()
        if fstatvfs(file, &disk) == 0 {
            reserve = reserveOverride ?? Self.standardReserve(capacity: Int64(disk.f_blocks) * Int64(disk.f_frsize))
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let outcome = download().flatMap { () -> Result<URL, Failure> in
            guard fsync(file) == 0 else { return .failure(Self.failure(errno: errno, folder: folder)) }
            return moveIntoPlace(temporary)
        }
        close(file)
        if case .failure = outcome { unlink(temporary) }
        return outcome
    }

    /// Gives the complete file the first name that no file has; an existing file is never replaced.
    private func moveIntoPlace(_ temporary: String) -> Result<URL, Failure> {
        let name = Self.fileName(for: url)
        for attempt in 1...10_000 {
            let destination = folder.appendingPathComponent(Self.candidate(name, attempt: attempt))
            // Creating the name exclusively claims it; the rename then replaces only that empty claim.
            let claim = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if claim < 0 {
                if errno == EEXIST { continue }
                return .failure(Self.failure(errno: errno, folder: folder))
            }
            close(claim)
            fchmod(file, 0o644)
            guard rename(temporary, destination.path) == 0 else {
                let error = errno
                unlink(destination.path)
                return .failure(Self.failure(errno: error, folder: folder))
            }
            return .success(destination)
        }
        return .failure(.fileSystem(String(cString: strerror(EEXIST))))
    }

    private func download() -> Result<Void, Failure> {
        let code: CURLcode
        switch transfer.drive(delivering: self) {
        case let .success(result): code = result
        case .failure(.cancelled): return .failure(.cancelled)
        case let .failure(.libcurl(words)): return .failure(.network(.other(words)))
        }
        if let writeFailure { return .failure(writeFailure) }
        switch code {
        case CURLE_OK:
            // An error page with no body never reached `body`.
            guard (200..<300).contains(status) else { return .failure(.httpStatus(status)) }
            progress(Progress(received: received, expected: expected))
            return .success(())
        case CURLE_OPERATION_TIMEDOUT: return .failure(.stalled)
        case CURLE_UNSUPPORTED_PROTOCOL where (300..<400).contains(status):
            return .failure(.refusedRedirect(target: location.flatMap { URL(string: $0, relativeTo: url)?.absoluteString } ?? ""))
        default: return .failure(.network(NetworkFailure(curlCode: code)))
        }
    }

    /// Takes one header line: a status line starts a new response (each redirect has its own).
    func header(_ line: UnsafeRawBufferPointer) -> Int {
        let text = String(decoding: line, as: UTF8.self).trimmingWhitespace
        if text.hasPrefix("HTTP/") {
            let fields = text.split(separator: " ", maxSplits: 2)
            status = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
            expected = nil
            location = nil
        } else if let colon = text.firstIndex(of: ":") {
            let value = text[text.index(after: colon)...].trimmingWhitespace
            switch text[..<colon].trimmingWhitespace.lowercased() {
            case "content-length": expected = Int64(value)
            case "location": location = String(value)
            default: break
            }
        } else if text.isEmpty, (200..<300).contains(status), let expected, expected > freeSpaceAboveReserve() {
            // The announced length does not fit: refused before a byte is written.
            writeFailure = .wouldFillDisk(reserve: reserve)
            return 0
        }
        return line.count
    }

    /// Writes one piece of the body; returning less than its size makes curl stop.
    func body(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard (200..<300).contains(status) else {
            writeFailure = .httpStatus(status)
            return 0
        }
        var offset = 0
        while offset < bytes.count {
            let written = write(file, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                writeFailure = Self.failure(errno: errno, folder: folder)
                return 0
            }
            offset += written
        }
        received += Int64(bytes.count)
        if received >= nextSpaceCheck {
            nextSpaceCheck = received + Self.spaceCheckInterval
            guard freeSpaceAboveReserve() >= 0 else {
                writeFailure = .wouldFillDisk(reserve: reserve)
                return 0
            }
        }
        // A report per piece would flood the window's main loop; ten a second show it moving.
        let now = ContinuousClock.now
        if now - lastReport >= .milliseconds(100) {
            lastReport = now
            progress(Progress(received: received, expected: expected))
        }
        return bytes.count
    }

    /// The free space on the file's disk beyond the reserve; negative once the reserve is reached.
    private func freeSpaceAboveReserve() -> Int64 {
        var disk = statvfs()
        guard fstatvfs(file, &disk) == 0 else { return .max }
        return Int64(disk.f_bavail) * Int64(disk.f_frsize) - reserve
    }

    /// Removes the partial files in `folder` that no download holds: those of a reader that was
    /// killed or crashed, which would otherwise stay there, hidden, for ever.
    public static func removeAbandonedParts(in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(partPrefix) {
            let path = folder.appendingPathComponent(name).path
            let part = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard part >= 0 else { continue }
            var status = stat()
            // A running download holds its lock until the file is renamed or removed.
            if fstat(part, &status) == 0, status.st_mode & S_IFMT == S_IFREG, flock(part, LOCK_EX | LOCK_NB) == 0 {
                unlink(path)
            }
            close(part)
        }
    }

    private static func failure(errno code: Int32, folder: URL) -> Failure {
        switch code {
        case ENOSPC, EDQUOT, EFBIG: .diskFull
        case EACCES, EPERM, EROFS: .noPermission(folder: folder.path)
        default: .fileSystem(String(cString: strerror(code)))
        }
    }
}

extension NetworkFailure {
    /// What a failed libcurl transfer's `code` means to the person waiting for it.
    init(curlCode code: CURLcode) {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self = .cannotFindHost
        case CURLE_COULDNT_CONNECT:
            self = .cannotConnect
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            self = .connectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR:
            self = .secureConnectionFailed
        default:
            self = .other(String(cString: curl_easy_strerror(code)))
        }
    }
}
