import Foundation
import Glibc

/// The OPML files a person names for import and export, read and written as the shell would:
/// by the bytes of their name, whatever the encoding; a symbolic link is followed to its target;
/// a device or pipe is written in place; a file that is replaced keeps its permissions.
public enum SubscriptionFile {
    /// Why a file could not be read or written.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The system refused with this `errno`.
        case system(Int32)
        /// The file holds more than `OPMLDocument.maxFileSize` bytes: `bytes`, or at least that many.
        case tooLarge(bytes: Int)

        public var description: String {
            switch self {
            case let .system(code): String(cString: strerror(code))
            case let .tooLarge(bytes): "the file holds \(bytes) bytes or more, over \(OPMLDocument.maxFileSize)"
            }
        }
    }

    /// The bytes of the file at `url`. A regular file's size is checked before anything is read,
    /// and a pipe or device is read only up to the limit: a huge file never fills memory.
    public static func read(_ file: LocalFile) throws(Failure) -> Data {
        let limit = OPMLDocument.maxFileSize
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system(errno) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw .system(EISDIR)
        case S_IFREG where Int(info.st_size) > limit: throw .tooLarge(bytes: Int(info.st_size))
        default: break
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
            if data.count > limit { throw .tooLarge(bytes: data.count) }
        }
    }

    /// Writes `data` to the file at `url`. A regular file (or none yet) is replaced whole through
    /// a temporary file beside it, with the old file's mode and owner, so a failed write leaves
    /// the old content; a symbolic link is followed, so its target is what changes; a device or
    /// pipe is written in place, and its errors (a full disk: ENOSPC) are reported.
    public static func write(_ data: Data, to file: LocalFile) throws(Failure) {
        let target = try resolvingLinks(file.path)
        var info = stat()
        let exists = stat(target, &info) == 0
        guard exists || errno == ENOENT else { throw .system(errno) }
        if exists, info.st_mode & S_IFMT == S_IFDIR { throw .system(EISDIR) }
        if exists, info.st_mode & S_IFMT != S_IFREG {
            let descriptor = open(target, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .system(errno) }
            try finish(descriptor, writing: data, syncing: false)
            return
        }
        let temporary = temporaryPath(beside: target)
        // 0666 before the umask, as the shell makes a new file; an existing file's mode replaces it.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw .system(errno) }
        do throws(Failure) {
            if exists {
                guard fchmod(descriptor, info.st_mode & 0o7777) == 0 else { throw .system(errno) }
                // Only root can give a file away; anyone else's copy is theirs, as an editor's would be.
                _ = fchown(descriptor, info.st_uid, info.st_gid)
            }
            try finish(descriptor, writing: data, syncing: true)
            guard rename(temporary, target) == 0 else { throw .system(errno) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes all of `data` to `descriptor` and closes it, throwing the first error.
    private static func finish(_ descriptor: Int32, writing data: Data, syncing: Bool) throws(Failure) {
        var failure: Int32?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == nil, syncing, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if let failure { throw .system(failure) }
    }

    /// The file `path` finally names after following symbolic links, whose target need not exist.
    private static func resolvingLinks(_ path: [CChar]) throws(Failure) -> [CChar] {
        var path = path
        // As many links as the kernel follows before it gives up with ELOOP.
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(path, &buffer, buffer.count - 1)
            guard length >= 0 else {
                if errno == EINVAL || errno == ENOENT { return path }
                throw .system(errno)
            }
            let link = Array(buffer[..<length])
            if link.first == CChar(UInt8(ascii: "/")) {
                path = link + [0]
            } else {
                let slash = path.lastIndex(of: CChar(UInt8(ascii: "/")))
                path = (slash.map { Array(path[...$0]) } ?? []) + link + [0]
            }
        }
        throw .system(ELOOP)
    }

    /// A name for a temporary file in the same folder as `path`, so the rename stays on one file system.
    private static func temporaryPath(beside path: [CChar]) -> [CChar] {
        let name = Array(path.dropLast())
        let slash = name.lastIndex(of: CChar(UInt8(ascii: "/")))
        let folder = slash.map { Array(name[...$0]) } ?? []
        let base = slash.map { Array(name[($0 + 1)...]) } ?? name
        let suffix = ".\(UInt32.random(in: 0...UInt32.max)).tmp"
        return folder + Array(".".utf8CString.dropLast()) + base + Array(suffix.utf8CString)
    }
}

/// A file on this computer named by the bytes of its path, which need not be UTF-8: a `URL`
/// replaces the bytes that are not, and so names another file.
public struct LocalFile: Sendable, Hashable {
    /// The absolute path's bytes, ending in NUL.
    public let path: [CChar]

    /// The file a command line names: taken relative to the working folder.
    public init(fileSystemPath: UnsafePointer<CChar>) {
        let given = Array(UnsafeBufferPointer(start: fileSystemPath, count: strlen(fileSystemPath) + 1))
        guard given.first != CChar(UInt8(ascii: "/")), let folder = getcwd(nil, 0) else {
            path = given
            return
        }
        defer { free(folder) }
        path = Array(UnsafeBufferPointer(start: folder, count: strlen(folder))) + [CChar(UInt8(ascii: "/"))] + given
    }

    /// The file at a `file:` URL, whose path's percent escapes are the name's bytes (`%E9`: the
    /// byte 0xE9, in whatever encoding the name has).
    public init(_ url: URL) {
        var bytes: [UInt8] = []
        var rest = Substring(url.path(percentEncoded: true)).utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
               let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        // A folder's URL ends in a slash; its path, as `URL.path` gives it, does not.
        if bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        path = (bytes + [0]).map { CChar(bitPattern: $0) }
    }

    /// The file as a `file:` URL: every byte but unreserved ASCII percent-encoded, so a name that
    /// is not UTF-8 keeps its bytes.
    public var url: URL {
        let encoded = path.dropLast().map { UInt8(bitPattern: $0) }.map { byte -> String in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                String(UnicodeScalar(byte))
            default:
                String(format: "%%%02X", byte)
            }
        }.joined()
        return URL(string: "file://" + encoded)!
    }
}
