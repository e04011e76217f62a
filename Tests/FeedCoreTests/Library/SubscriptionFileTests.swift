import Foundation
import Testing
@testable import FeedCore

/// Reading and writing the files a person names for import and export, as the shell would.
@Suite("Subscription files: what import reads and export writes")
final class SubscriptionFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("subscription-file-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func fileType(_ url: URL) -> mode_t {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test func aHugeFileIsRefusedFromItsSizeWithoutBeingRead() {
        let file = folder.appendingPathComponent("huge.opml")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        // Sparse: two gigabytes that take no disk.
        #expect(truncate(file.path, 2 << 30) == 0)
        let growth = peakMemoryGrowth {
            #expect(throws: SubscriptionFile.Failure.tooLarge(bytes: 2 << 30)) { try SubscriptionFile.read(LocalFile(file)) }
        }
        #expect(growth < 1 << 30, "\(growth) bytes more at the peak (the whole file was read before)")
    }

    @Test func devNullReadsAsEmptyAndAPipeAsWhatItCarries() throws {
        #expect(try SubscriptionFile.read(LocalFile(URL(fileURLWithPath: "/dev/null"))).isEmpty)
        let fifo = folder.appendingPathComponent("pipe.opml")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let content = Data("<opml version=\"2.0\"><body/></opml>".utf8)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo.path)
            handle?.write(content)
            try? handle?.close()
        }
        writer.start()
        #expect(try SubscriptionFile.read(LocalFile(fifo)) == content)
    }

    @Test func writingThroughALinkChangesItsTarget() throws {
        let target = folder.appendingPathComponent("real.opml")
        try Data("old".utf8).write(to: target)
        let link = folder.appendingPathComponent("link.opml")
        #expect(symlink("real.opml", link.path) == 0)
        try SubscriptionFile.write(Data("new".utf8), to: LocalFile(link))
        #expect(fileType(link) == S_IFLNK, "the link is still a link")
        #expect(try Data(contentsOf: target) == Data("new".utf8))

        let dangling = folder.appendingPathComponent("dangling.opml")
        #expect(symlink(folder.appendingPathComponent("made.opml").path, dangling.path) == 0)
        try SubscriptionFile.write(Data("made".utf8), to: LocalFile(dangling))
        #expect(fileType(dangling) == S_IFLNK)
        #expect(try Data(contentsOf: folder.appendingPathComponent("made.opml")) == Data("made".utf8))
    }

    @Test func aReplacedFileKeepsItsMode() throws {
        let file = folder.appendingPathComponent("private.opml")
        try Data("old".utf8).write(to: file)
        #expect(chmod(file.path, 0o600) == 0)
        try SubscriptionFile.write(Data("new".utf8), to: LocalFile(file))
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["private.opml"], "no temporary file is left")
    }

    @Test func aDeviceIsWrittenInPlaceAndItsErrorReported() throws {
        #expect(throws: SubscriptionFile.Failure.system(ENOSPC)) { try SubscriptionFile.write(Data("x".utf8), to: LocalFile(URL(fileURLWithPath: "/dev/full"))) }
        #expect(fileType(URL(fileURLWithPath: "/dev/full")) == S_IFCHR, "/dev/full is still the device")
    }

    @Test func aPipeIsWrittenInPlace() throws {
        let fifo = folder.appendingPathComponent("pipe.opml")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let received = ReceivedData()
        let reader = Thread { received.set(FileHandle(forReadingAtPath: fifo.path)?.readDataToEndOfFile()) }
        reader.start()
        try SubscriptionFile.write(Data("through the pipe".utf8), to: LocalFile(fifo))
        // The reader waits for a writer: a program that replaced the pipe instead leaves it waiting.
        let deadline = Date().addingTimeInterval(30)
        while received.value == nil, Date() < deadline { usleep(1_000) }
        #expect(received.value == Data("through the pipe".utf8))
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test func aNameThatIsNotUTF8IsUsedByItsBytes() throws {
        // "café.opml" with é in Latin-1: not UTF-8.
        let bytes: [CChar] = Array((folder.path + "/caf").utf8CString.dropLast()) + [CChar(bitPattern: 0xE9)] + Array(".opml".utf8CString)
        let file = bytes.withUnsafeBufferPointer { LocalFile(fileSystemPath: $0.baseAddress!) }
        try SubscriptionFile.write(Data("bytes".utf8), to: file)
        #expect(access(bytes, F_OK) == 0, "the file has exactly the name given")
        #expect(try SubscriptionFile.read(file) == Data("bytes".utf8))
        #expect(LocalFile(file.url) == file, "a file: URL keeps the name's bytes")
        #expect(file.url.absoluteString.hasSuffix("/caf%E9.opml"))
    }

    @Test func theSystemsReasonsAreKept() throws {
        #expect(throws: SubscriptionFile.Failure.system(ENOENT)) {
            try SubscriptionFile.write(Data(), to: LocalFile(folder.appendingPathComponent("missing/out.opml")))
        }
        #expect(throws: SubscriptionFile.Failure.system(EISDIR)) { try SubscriptionFile.read(LocalFile(folder)) }
        #expect(throws: SubscriptionFile.Failure.system(EISDIR)) { try SubscriptionFile.write(Data(), to: LocalFile(folder)) }
    }
}

/// Data a reader thread hands over.
private final class ReceivedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    var value: Data? { lock.withLock { data } }
    func set(_ value: Data?) { lock.withLock { data = value ?? Data() } }
}
