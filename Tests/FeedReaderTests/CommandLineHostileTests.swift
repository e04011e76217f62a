import FeedCore
import Foundation
import TestSupport
import XCTest

/// `--import` and `--export` given files made to hurt, special files, names that are not UTF-8,
/// and a database another program is writing to: a reason in words, never a crash or a lie.
extension CommandLineTests {
    /// Runs feed-reader as `feedReader` does, under GNU time, with its own peak resident memory in
    /// bytes: this process's other children (the GTK tests start many) are not counted.
    private func measuredFeedReader(_ arguments: [String], language: String? = nil, extra: [String: String]) throws -> (run: Run, peak: Int) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("feed-reader-peak-\(UUID())")
        defer { try? FileManager.default.removeItem(at: report) }
        let run = try feedReader(["-o", report.path, "-f", "%M", programURL.path] + arguments, language: language, extra: extra,
                                 program: "/usr/bin/time")
        let kilobytes = try String(contentsOf: report, encoding: .utf8).split(separator: "\n").last.flatMap { Int($0) }
        return (run, (kilobytes ?? Int.max / 1024) * 1024)
    }

    func testAHugeFileIsRefusedFromItsSizeWithoutBeingRead() throws {
        let (folder, environment) = try dataHome()
        let huge = folder.appendingPathComponent("huge.opml")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge.path, contents: nil))
        // Two gigabytes that take no disk: read whole, they took 2.1 GB, then trapped on Int32(count).
        XCTAssertEqual(truncate(huge.path, 2 << 30), 0)
        let (run, peak) = try measuredFeedReader(["--import", huge.path], extra: environment)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertEqual(run.errors, "feed-reader: \(huge.path): The file is far too large to be a subscription list, so nothing was imported.\n")
        XCTAssertLessThan(peak, 512 << 20, "feed-reader did not read the file")
    }

    func testEntityBombsAndDeepNestingAreRefusedWithAReason() throws {
        let (folder, environment) = try dataHome()
        let bomb = folder.appendingPathComponent("bomb.opml")
        var entities = #"<!ENTITY a "lol">"#
        for (previous, name) in zip("abcdefghi", "bcdefghij") {
            entities += "<!ENTITY \(name) \"\(String(repeating: "&\(previous);", count: 10))\">"
        }
        try Data("""
            <?xml version="1.0"?><!DOCTYPE opml [\(entities)]>
            <opml version="2.0"><body><outline text="&j;" xmlUrl="http://127.0.0.1:9/feed"/></body></opml>
            """.utf8).write(to: bomb)
        let deep = folder.appendingPathComponent("deep.opml")
        try Data(("<opml version=\"2.0\"><body>" + String(repeating: "<outline text=\"x\">", count: 10_000)
            + String(repeating: "</outline>", count: 10_000) + "</body></opml>").utf8).write(to: deep)
        let cases: [(file: URL, language: String?, message: String)] = [
            (bomb, nil, "The file declares XML entities, which a subscription list never needs, so nothing was imported."),
            (deep, nil, "The file nests its outlines too deeply to be a subscription list, so nothing was imported."),
            (deep, "de", "Die Datei verschachtelt ihre Einträge zu tief für eine Abonnementliste, daher wurde nichts importiert."),
        ]
        for item in cases {
            let started = Date()
            let (run, peak) = try measuredFeedReader(["--import", item.file.path], language: item.language, extra: environment)
            XCTAssertEqual(run.status, 1, "\(item.file.lastPathComponent): \(run.errors)")
            XCTAssertEqual(run.errors, "feed-reader: \(item.file.path): \(item.message)\n")
            XCTAssertLessThan(Date().timeIntervalSince(started), 30, "refused before expanding anything")
            XCTAssertLessThan(peak, 512 << 20, "\(item.file.lastPathComponent): refused before expanding anything")
        }
        let export = folder.appendingPathComponent("after.opml")
        XCTAssertEqual(try feedReader(["--export", export.path], extra: environment).output,
                       "0 subscriptions were exported to \(export.path).\n", "nothing was imported")
    }

    func testDevNullAndPipesAreReadNotRefused() throws {
        // A program that never reads the pipe must fail this test, not kill it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let (folder, environment) = try dataHome()
        let empty = try feedReader(["--import", "/dev/null"], extra: environment)
        XCTAssertEqual(empty.status, 1)
        XCTAssertEqual(empty.errors, "feed-reader: /dev/null: The file is not a subscription list (OPML), so nothing was imported.\n")

        let fifo = folder.appendingPathComponent("pipe.opml")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo.path)
            handle?.write(Data(#"<opml version="2.0"><body><outline text="Piped" xmlUrl="http://127.0.0.1:9/piped"/></body></opml>"#.utf8))
            try? handle?.close()
        }
        writer.start()
        let piped = try feedReader(["--import", fifo.path], extra: environment)
        XCTAssertEqual(piped.status, 0, piped.errors)
        XCTAssertTrue(piped.output.hasPrefix("1 subscription was imported."), piped.output)
    }

    func testExportWritesThroughLinksIntoDevicesAndPipesAndKeepsTheMode() throws {
        // Run as root, an export that replaced /dev/full with a file would leave the machine without it.
        defer { restoreDevFull() }
        let (folder, environment) = try dataHome()
        // A link to a private file: the file gets the list and stays private, the link stays a link.
        let target = folder.appendingPathComponent("private.opml")
        try Data("old".utf8).write(to: target)
        XCTAssertEqual(chmod(target.path, 0o600), 0)
        let link = folder.appendingPathComponent("link.opml")
        XCTAssertEqual(symlink(target.path, link.path), 0)
        let linked = try feedReader(["--export", link.path], extra: environment)
        XCTAssertEqual(linked.status, 0, linked.errors)
        var info = stat()
        XCTAssertEqual(lstat(link.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the link is still a link")
        XCTAssertEqual(stat(target.path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o7777, 0o600, "the private file stays private")
        XCTAssertTrue(try String(contentsOf: target, encoding: .utf8).contains("<opml"), "the link's target has the list")

        // A full disk: the device is written, its error reported, and it is still the device.
        for language in [nil, "fr"] as [String?] {
            let full = try feedReader(["--export", "/dev/full"], language: language, extra: environment)
            XCTAssertEqual(full.status, 1)
            let expected = language == nil
                ? "The subscriptions could not be exported to /dev/full. The disk is full."
                : "Les abonnements n’ont pas pu être exportés vers /dev/full. Le disque est plein."
            XCTAssertEqual(full.errors, "feed-reader: \(expected)\n")
        }
        XCTAssertEqual(stat("/dev/full", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR)

        // A pipe: whoever reads it gets the list, and it is still a pipe.
        let fifo = folder.appendingPathComponent("pipe.opml")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let received = Received()
        let reader = Thread { received.set(FileHandle(forReadingAtPath: fifo.path)?.readDataToEndOfFile() ?? Data()) }
        reader.start()
        let piped = try feedReader(["--export", fifo.path], extra: environment)
        XCTAssertEqual(piped.status, 0, piped.errors)
        // The reader waits for a writer: a program that replaced the pipe instead leaves it waiting.
        let deadline = Date().addingTimeInterval(30)
        while received.value == nil, Date() < deadline { usleep(1_000) }
        XCTAssertTrue(String(decoding: received.value ?? Data(), as: UTF8.self).contains("<opml"))
        XCTAssertEqual(lstat(fifo.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)
    }

    func testNamesThatAreNotUTF8AreUsedByTheirBytes() throws {
        let (folder, environment) = try dataHome()
        // "liste-é.opml" and "export-é.opml" with é in Latin-1, made and named by the shell.
        let script = """
            cd "$FOLDER" && printf '<opml version="2.0"><body><outline text="A" xmlUrl="http://127.0.0.1:9/a"/></body></opml>' > "$(printf 'liste-\\351.opml')" \
            && "$PROGRAM" --import "$FOLDER/$(printf 'liste-\\351.opml')" && "$PROGRAM" --export "$FOLDER/$(printf 'export-\\351.opml')"
            """
        let run = try feedReader(["-c", script], extra: environment.merging(["FOLDER": folder.path, "PROGRAM": programURL.path]) { $1 }, program: "/bin/sh")
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.hasPrefix("1 subscription was imported."), run.output)
        let names = try FileManager.default.contentsOfDirectoryBytes(at: folder)
        XCTAssertTrue(names.contains(Array("export-".utf8) + [0xE9] + Array(".opml".utf8)), "exported to exactly the name given: \(names)")
        XCTAssertFalse(names.contains(Array("export-\u{FFFD}.opml".utf8)), "not to a name with the byte replaced")
    }

    func testParseReadsAFileWhoseNameIsNotUTF8() throws {
        let (folder, environment) = try dataHome()
        let feed = LatinOneFileName(in: folder, "flux-", ".xml")
        try feed.write(plainFeed(entries: 3))
        // The name as the shell passes it: its bytes, made by printf.
        let script = #"cd "$FOLDER" && "$PROGRAM" --parse "$(printf 'flux-\351.xml')""#
        let run = try feedReader(["-c", script], extra: environment.merging(["FOLDER": folder.path, "PROGRAM": programURL.path]) { $1 }, program: "/bin/sh")
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.contains("\"entries\""), run.output)
        XCTAssertEqual(run.errors, "")
        let missing = try feedReader(["-c", #"cd "$FOLDER" && "$PROGRAM" --parse "$(printf 'autre-\351.xml')""#],
                                     extra: environment.merging(["FOLDER": folder.path, "PROGRAM": programURL.path]) { $1 }, program: "/bin/sh")
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("autre-\u{FFFD}.xml"), "the missing file named, its byte shown as U+FFFD: \(missing.errors)")
    }

    func testImportWaitsForAnotherWriterAndKeepsWhatWasStarred() async throws {
        let (folder, environment) = try dataHome()
        let database = folder.appendingPathComponent("feed-reader/feeds.sqlite")
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        let starred: Int64
        do {
            let store = try FeedStore(path: database.path)
            let feed = try await store.addFeed(url: URL(string: "http://127.0.0.1:9/starred")!)
            let parsed = ParsedFeed(format: .rss, feed: Feed(id: "feed", title: "Feed"), entries: [Entry(id: "1", title: "Keep me")])
            try await store.apply(FetchResult(request: FeedRequest(url: feed.url), outcome: .fetched(parsed, validators: CacheValidators())),
                                  toFeed: feed.id)
            let first = try await store.entries().first?.id
            starred = try XCTUnwrap(first)
            try await store.setStarred(entryID: starred)
        }
        let list = folder.appendingPathComponent("list.opml")
        try Data(#"<opml version="2.0"><body><outline text="New" xmlUrl="http://127.0.0.1:9/new"/></body></opml>"#.utf8).write(to: list)

        // Another reader holds the write lock as the command starts, and lets go after 2 s.
        let holder = try SQLiteLockHolder(path: database.path, seconds: 2)
        let run = try feedReader(["--import", list.path], extra: environment)
        holder.waitUntilReleased()
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.hasPrefix("1 subscription was imported."), run.output)
        let files = try FileManager.default.contentsOfDirectory(atPath: database.deletingLastPathComponent().path)
        XCTAssertFalse(files.contains { $0.contains("damaged") }, "nothing was set aside: \(files)")
        let store = try FeedStore(path: database.path)
        let kept = try await store.entry(id: starred)
        XCTAssertEqual(kept?.isStarred, true, "the star made earlier is kept")
        let feeds = try await store.feeds()
        XCTAssertEqual(feeds.count, 2)
    }
}

/// Makes /dev/full the device again if a failing export replaced it (only root could).
private func restoreDevFull() {
    var info = stat()
    guard lstat("/dev/full", &info) != 0 || info.st_mode & S_IFMT != S_IFCHR, getuid() == 0 else { return }
    unlink("/dev/full")
    // Major 1, minor 7, as the kernel numbers it (makedev for numbers this small).
    mknod("/dev/full", S_IFCHR | 0o666, dev_t(1 << 8 | 7))
    chmod("/dev/full", 0o666)
}

/// Data a reader thread hands over.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    var value: Data? { lock.withLock { data } }
    func set(_ value: Data) { lock.withLock { data = value } }
}
