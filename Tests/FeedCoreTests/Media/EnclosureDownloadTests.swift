import Foundation
import Synchronization
import Testing
import TestSupport
@testable import FeedCore

/// Saving enclosures from a real HTTP server on 127.0.0.1 into real folders.
@Suite("Enclosure downloads")
struct EnclosureDownloadTests {
    /// Bytes that are not all the same, so a file cut or shifted anywhere differs.
    static func body(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
    }

    /// A new empty folder to save into.
    static func newFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("enclosure-downloads-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The names in `folder`, hidden ones too (a temporary file left behind would be one).
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func savesTheFileReportingProgressAndNeverReplacesOne() async throws {
        let content = Self.body(640 * 1024)
        let server = try TestHTTPServer { _ in
            var response = TestHTTPServer.Response.ok(content, headers: [("Content-Type", "audio/ogg")])
            response.pieceInterval = 0.03
            return response
        }
        defer { server.stop() }
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("mine".utf8).write(to: folder.appendingPathComponent("episode 7.ogg"))
        let reports = Mutex<[EnclosureDownload.Progress]>([])
        let url = server.url("/show/episode%207.ogg?token=1")
        let saved = try await EnclosureDownload(url: url, into: folder) { progress in reports.withLock { $0.append(progress) } }.start()

        #expect(saved.lastPathComponent == "episode 7 (2).ogg")
        #expect(try Data(contentsOf: saved) == content)
        #expect(try Data(contentsOf: folder.appendingPathComponent("episode 7.ogg")) == Data("mine".utf8))
        let progress = reports.withLock { $0 }
        #expect(progress.count >= 3, "a slow download reports as it goes, not only at its end")
        #expect(progress.map(\.received) == progress.map(\.received).sorted())
        #expect(progress.contains { ($0.fraction ?? 0) > 0 && ($0.fraction ?? 1) < 1 })
        #expect(progress.last == EnclosureDownload.Progress(received: Int64(content.count), expected: Int64(content.count)))

        let again = try await EnclosureDownload(url: url, into: folder) { _ in }.start()
        #expect(again.lastPathComponent == "episode 7 (3).ogg")
        #expect(try Self.names(in: folder) == ["episode 7 (2).ogg", "episode 7 (3).ogg", "episode 7.ogg"])
    }

    @Test func cancellingStopsAtOnceAndLeavesNothing() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPServer.Response(status: 200, body: Self.body(4096), chunks: {
                Thread.sleep(forTimeInterval: 0.01)
                return Self.body(16 * 1024)
            })
        }
        defer { server.stop() }
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (arrived, arrival) = AsyncStream.makeStream(of: EnclosureDownload.Progress.self)
        let download = EnclosureDownload(url: server.url("/endless.mp3"), into: folder) { arrival.yield($0) }
        let task = Task { try await download.start() }
        var iterator = arrived.makeAsyncIterator()
        let first = await iterator.next()
        #expect((first?.received ?? 0) > 0)
        #expect(first?.expected == nil)
        #expect(try Self.names(in: folder).count == 1, "the body goes to a temporary file while it arrives")
        task.cancel()
        await #expect(throws: EnclosureDownload.Failure.cancelled) { try await task.value }
        #expect(try Self.names(in: folder).isEmpty)
    }

    @Test func anHTTPErrorSavesNothing() async throws {
        let server = try TestHTTPServer { _ in .status(404) }
        defer { server.stop() }
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: EnclosureDownload.Failure.httpStatus(404)) {
            try await EnclosureDownload(url: server.url("/gone.mp3"), into: folder) { _ in }.start()
        }
        #expect(try Self.names(in: folder).isEmpty)
    }

    @Test func aServerThatIsNotThereIsANetworkFailure() async throws {
        let server = try TestHTTPServer { _ in .ok(Data()) }
        let url = server.url("/ep.mp3")
        server.stop()
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: EnclosureDownload.Failure.network(.cannotConnect)) {
            try await EnclosureDownload(url: url, into: folder) { _ in }.start()
        }
        #expect(try Self.names(in: folder).isEmpty)
    }

    @Test func aFolderThatCannotBeWrittenToIsSaidSo() async throws {
        let server = try TestHTTPServer { _ in .ok(Self.body(1000)) }
        defer { server.stop() }
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withReadOnlyFolder(folder) {
            await #expect(throws: EnclosureDownload.Failure.noPermission(folder: folder.path)) {
                try await EnclosureDownload(url: server.url("/ep.mp3"), into: folder) { _ in }.start()
            }
        }
        #expect(try Self.names(in: folder).isEmpty)
    }

    /// A real full disk: a 64 KB tmpfs mounted over the folder, which only root can mount.
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFullDiskIsSaidSoAndThePartIsRemoved() async throws {
        // No length announced, and no reserve: the disk fills up while the body arrives.
        let server = try TestHTTPServer { _ in
            var response = TestHTTPServer.Response.ok(Self.body(1024 * 1024))
            response.omitContentLength = true
            return response
        }
        defer { server.stop() }
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try runTool("/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path)
        defer { try? runTool("/bin/umount", "--lazy", folder.path) }
        await #expect(throws: EnclosureDownload.Failure.diskFull) {
            try await EnclosureDownload(url: server.url("/big.mp3"), into: folder, reserve: 0) { _ in }.start()
        }
        #expect(try Self.names(in: folder).isEmpty)
    }

    /// The free space on `folder`'s disk, in bytes.
    static func freeSpace(_ folder: URL) -> Int64 {
        var disk = statvfs()
        #expect(statvfs(folder.path, &disk) == 0)
        return Int64(disk.f_bavail) * Int64(disk.f_frsize)
    }

    /// An endless enclosure filled a 64 MB tmpfs in a second (case 40 of the red team's second
    /// run): a download stops while the reserve is still free, and leaves nothing behind.
    @Test func anEndlessDownloadStopsAtTheReserve() async throws {
        let server = try TestHTTPServer { _ in TestHTTPServer.Response(status: 200, chunks: { Self.body(64 * 1024) }) }
        defer { server.stop() }
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A disk of its own where one can be mounted (as root): on the test's disk, the other
        // programs of a loaded machine wrote and freed space while it ran.
        let ownDisk = getuid() == 0
        if ownDisk { try runTool("/bin/mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", folder.path) }
        defer { if ownDisk { try? runTool("/bin/umount", "--lazy", folder.path) } }
        // The reserve leaves 8 MB to fill, give or take what another program writes meanwhile.
        let reserve = Self.freeSpace(folder) - 8 << 20
        await #expect(throws: EnclosureDownload.Failure.wouldFillDisk(reserve: reserve)) {
            try await EnclosureDownload(url: server.url("/endless.zip"), into: folder, reserve: reserve) { _ in }.start()
        }
        #expect(try Self.names(in: folder).isEmpty)
        #expect(server.waitForFinishedResponses(1))
        #expect(server.responsesCutByClient == 1, "the download hung up, not merely stopped reading")
        #expect(server.bodyBytesSent < 64 << 20, "stopped near the reserve, not at a full disk")
    }

    /// An announced length that does not fit above the reserve is refused before a byte is
    /// written, on a real small disk (a 4 MB tmpfs, which only root can mount) with the standard
    /// reserve, and with a reserve set high on the test's own disk.
    @Test func anAnnouncedLengthThatDoesNotFitIsRefusedAtOnce() async throws {
        let server = try TestHTTPServer { _ in .ok(Self.body(2 << 20)) }
        defer { server.stop() }
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reserve = Self.freeSpace(folder) - 1 << 20
        await #expect(throws: EnclosureDownload.Failure.wouldFillDisk(reserve: reserve)) {
            try await EnclosureDownload(url: server.url("/two-megabytes.mp3"), into: folder, reserve: reserve) { _ in }.start()
        }
        #expect(try Self.names(in: folder).isEmpty)
        guard getuid() == 0 else { return }
        try runTool("/bin/mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", folder.path)
        // Lazily: a download refused may still hold its folder open for a moment, and a mount
        // left behind would keep the test run's scratch folder from being removed.
        defer { try? runTool("/bin/umount", "--lazy", folder.path) }
        await #expect(throws: EnclosureDownload.Failure.wouldFillDisk(reserve: 1 << 30)) {
            try await EnclosureDownload(url: server.url("/two-megabytes.mp3"), into: folder) { _ in }.start()
        }
        #expect(try Self.names(in: folder).isEmpty)
    }

    @Test(arguments: [(Int64(4) << 20, Int64(1) << 30), (Int64(100) << 30, Int64(5) << 30), (Int64(2) << 40, Int64(2) << 40 / 20)])
    func theReserveIsOneGigabyteOrFivePercent(capacity: Int64, reserve: Int64) {
        #expect(EnclosureDownload.standardReserve(capacity: capacity) == reserve)
    }

    /// A killed reader's partial file stayed in Downloads for ever (case 41): parts no download
    /// holds are removed, a running download's part and other files are kept.
    @Test func abandonedPartsAreRemovedAndARunningOnesKept() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPServer.Response(status: 200, body: Self.body(4096), chunks: {
                Thread.sleep(forTimeInterval: 0.01)
                return Self.body(16 * 1024)
            })
        }
        defer { server.stop() }
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in [".feed-reader-download-AbCd12", ".feed-reader-download-old", "episode.mp3", ".hidden"] {
            try Data("part".utf8).write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".feed-reader-download-folder"), withIntermediateDirectories: false)
        let (arrived, arrival) = AsyncStream.makeStream(of: EnclosureDownload.Progress.self)
        let download = EnclosureDownload(url: server.url("/endless.mp3"), into: folder) { arrival.yield($0) }
        let task = Task { try await download.start() }
        var iterator = arrived.makeAsyncIterator()
        _ = await iterator.next()
        let running = try Self.names(in: folder).filter { $0.hasPrefix(".feed-reader-download-") && ![".feed-reader-download-AbCd12", ".feed-reader-download-folder"].contains($0) && $0.count == 28 }
        #expect(running.count == 1)

        EnclosureDownload.removeAbandonedParts(in: folder)

        #expect(try Self.names(in: folder) == ([".feed-reader-download-folder", ".hidden", "episode.mp3"] + running).sorted())
        task.cancel()
        await #expect(throws: EnclosureDownload.Failure.cancelled) { try await task.value }
    }

    /// A redirect to a local file is said to be one, not "could not be reached" (case 43).
    @Test func aRedirectToAFileIsRefusedAsSuch() async throws {
        let server = try TestHTTPServer { _ in .status(302, headers: [("Location", "file:///etc/passwd")]) }
        defer { server.stop() }
        let folder = try Self.newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: EnclosureDownload.Failure.refusedRedirect(target: "file:///etc/passwd")) {
            try await EnclosureDownload(url: server.url("/ep.mp3"), into: folder) { _ in }.start()
        }
        #expect(try Self.names(in: folder).isEmpty)
    }

    @Test func namesComeFromTheAddressAndCannotLeaveTheFolder() {
        #expect(EnclosureDownload.fileName(for: URL(string: "https://a.example/pod/Ep%C3%A9%2042.mp3?x=1")!) == "Epé 42.mp3")
        #expect(EnclosureDownload.fileName(for: URL(string: "https://a.example/a%2F..%2F..%2Fetc%2Fpasswd")!) == "a_.._.._etc_passwd")
        #expect(EnclosureDownload.fileName(for: URL(string: "https://a.example/..")!) == "download")
        #expect(EnclosureDownload.fileName(for: URL(string: "https://a.example/.hidden")!) == "hidden")
        #expect(EnclosureDownload.fileName(for: URL(string: "https://a.example/")!) == "download")
        // U+202E showed "evil\u{202E}piz.sh" as "evilhs.zip" (case 42); other format characters go too, controls become "_".
        #expect(EnclosureDownload.fileName(for: URL(string: "https://a.example/..%2F..%2Fevil%E2%80%AEpiz.sh")!) == "_.._evilpiz.sh")
        #expect(EnclosureDownload.fileName(for: URL(string: "https://a.example/a%E2%81%A6b%E2%80%8Bc%EF%BB%BFd%07e.mp3")!) == "abcd_e.mp3")
        #expect(EnclosureDownload.fileName(for: URL(string: "https://a.example/%E2%80%AE")!) == "download")
        #expect(EnclosureDownload.candidate("talk.tar.gz", attempt: 2) == "talk.tar (2).gz")
        #expect(EnclosureDownload.candidate("README", attempt: 3) == "README (3)")
    }
}
