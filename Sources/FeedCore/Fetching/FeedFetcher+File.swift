import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FeedFetcher {
    /// Reads a local feed from a file URL.
    ///
    /// Only regular files are read, and only when their size is within the limit: the path is opened
    /// without blocking (a pipe with no writer would block the open itself) and checked before any read.
    func readFile(_ url: URL) -> FetchOutcome {
        let data: Data
        switch readFileBytes(url) {
        case let .success(bytes): data = bytes
        case let .failure(error): return .failed(error)
        }
        do {
            return .fetched(try FeedParser(maxDocumentSize: configuration.maxBodySize).parse(data, url: url), validators: CacheValidators())
        } catch {
            return .failed(.invalidFeed(error))
        }
    }

    /// The bytes of the regular file at `url`, within the size limit.
    func readFileBytes(_ url: URL) -> Result<Data, FetchError> {
        // Opened by the bytes the URL names, which need not be UTF-8; said with U+FFFD for those.
        let file = LocalFile(url)
        let path = String(decoding: file.path.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let limit = configuration.maxBodySize
        let descriptor = open(file.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(code == ENOENT ? .fileNotFound(path: path) : .unreadableFile(path: path, reason: Self.reason(for: code)))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(.unreadableFile(path: path, reason: Self.reason(for: errno)))
        }
        if let kind = Self.kind(ofNonRegular: status.st_mode) {
            return .failure(.notAFile(path: path, kind: kind))
        }
        guard status.st_size <= limit else {
            return .failure(.tooLarge(limit: limit))
        }
        let data: Data
        do {
            // Reading one byte past the limit catches a file that grew since it was measured.
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            return .failure(.unreadableFile(path: path, reason: Self.reason(for: error)))
        }
        guard data.count <= limit else {
            return .failure(.tooLarge(limit: limit))
        }
        return .success(data)
    }

    /// What `mode` describes, or nil for a regular file.
    private static func kind(ofNonRegular mode: mode_t) -> FetchError.FileKind? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: .directory
        case S_IFIFO: .namedPipe
        case S_IFSOCK: .socket
        default: .device
        }
    }

    private static func reason(for code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func reason(for error: Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain {
            return reason(for: Int32(nsError.code))
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return reason(for: Int32(underlying.code))
        }
        return nsError.localizedDescription
    }
}
