import FeedCore
import Foundation
import Glibc

/// A file whose name is not valid UTF-8: `<prefix>é<suffix>` with é in Latin-1 (byte 0xE9), as
/// an old archive or another system leaves them. Such a name cannot be a Swift `String`, so the
/// file is made and looked for by the bytes of its path.
struct LatinOneFileName {
    let folder: URL
    /// The name's bytes.
    let name: [UInt8]

    init(in folder: URL, _ prefix: String, _ suffix: String) {
        self.folder = folder
        name = Array(prefix.utf8) + [0xE9] + Array(suffix.utf8)
    }

    /// The absolute path's bytes, ending in NUL.
    var path: [CChar] { (Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]).map { CChar(bitPattern: $0) } }

    var localFile: LocalFile { path.withUnsafeBufferPointer { LocalFile(fileSystemPath: $0.baseAddress!) } }

    /// The `file:` URI, the byte percent-encoded, for programs that take a URI.
    var uri: String {
        "file://" + folder.path + "/" + name.map { byte in
            byte < 0x80 ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }

    /// How GLib shows the name to people: the byte as U+FFFD.
    var displayedPath: String { folder.path + "/" + String(decoding: name, as: UTF8.self) }

    /// The same name with the byte replaced by U+FFFD, as a program that took the name for
    /// UTF-8 text would write it.
    var replacedName: [UInt8] { Array(String(decoding: name, as: UTF8.self).utf8) }

    func write(_ data: Data) throws {
        try SubscriptionFile.write(data, to: localFile)
    }

    /// The names in the folder, by their bytes.
    func namesInFolder() -> [[UInt8]] {
        (try? FileManager.default.contentsOfDirectoryBytes(at: folder)) ?? []
    }
}

extension FileManager {
    /// The names in `folder` as the bytes they are.
    func contentsOfDirectoryBytes(at folder: URL) throws -> [[UInt8]] {
        guard let directory = opendir(folder.path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != Array(".".utf8), name != Array("..".utf8) { names.append(name) }
        }
        return names
    }
}
