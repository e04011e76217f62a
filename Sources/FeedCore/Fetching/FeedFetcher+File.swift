import Foundation

extension FeedFetcher {
    /// Reads a local feed; URLSession on Linux has no file:// support, so files are read directly.
    func readFile(_ url: URL) -> FetchOutcome {
        let path = url.path
        let limit = configuration.maxBodySize
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            guard FileManager.default.fileExists(atPath: path) else {
                return .failed(.fileNotFound(path: path))
            }
            return .failed(.unreadableFile(path: path, reason: Self.reason(for: error)))
        }
        defer { try? handle.close() }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return .failed(.unreadableFile(path: path, reason: "it is a directory"))
        }
        let data: Data
        do {
            // Reading one byte past the limit tells an oversized file from one exactly at it.
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            return .failed(.unreadableFile(path: path, reason: Self.reason(for: error)))
        }
        guard data.count <= limit else {
            return .failed(.tooLarge(limit: limit))
        }
        do {
            return .fetched(try FeedParser(maxDocumentSize: limit).parse(data, url: url), validators: CacheValidators())
        } catch {
            return .failed(.invalidFeed(error))
        }
    }

    private static func reason(for error: Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(nsError.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
