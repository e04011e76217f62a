@testable import AppSupport
import CGtk
import Foundation
import Glibc
import XCTest

/// The GKeyFile store: atomic, escaping keys, writing once for many changes, and never stopped
/// by a bad file nor saving over one it could not read.
final class SettingsStoreTests: XCTestCase {
    func testValuesPersistAcrossInstances() {
        onMain {
            let path = temporaryDirectory().appendingPathComponent("nested/settings.ini").path
            let date = Date(timeIntervalSince1970: 1_790_000_000)
            let first = SettingsStore(path: path)
            first.setDate(date, forKey: "header", in: "LastUpdated")
            first.flush()
            let store = SettingsStore(path: path)
            store.setInteger(900, forKey: "width", in: "Window")
            store.flush()
            let reopened = SettingsStore(path: path)
            XCTAssertEqual(reopened.date(forKey: "header", in: "LastUpdated"), date)
            XCTAssertEqual(reopened.integer(forKey: "width", in: "Window"), 900)
            XCTAssertNil(reopened.recoveryNote)
        }
    }

    func testAnyKeyRoundTrips() {
        onMain {
            let path = temporaryDirectory().appendingPathComponent("settings.ini").path
            let keys = ["a=b", "[group]", "line\nbreak", " spaced ", "percent%20", "日本", ""]
            let store = SettingsStore(path: path)
            for (index, key) in keys.enumerated() { store.setString("value \(index)", forKey: key, in: "Keys") }
            store.flush()
            let reopened = SettingsStore(path: path)
            for (index, key) in keys.enumerated() {
                XCTAssertEqual(reopened.string(forKey: key, in: "Keys"), "value \(index)", "key \(key.debugDescription)")
            }
        }
    }

    func testCorruptFileIsMovedAsideAndTheStoreStartsEmpty() throws {
        try onMain {
            let folder = temporaryDirectory()
            let path = folder.appendingPathComponent("settings.ini").path
            let garbage = Data([0x5B, 0x5B, 0x0A, 0xFF, 0xFE, 0x3D, 0x3D, 0x0A, 0x6E, 0x6F, 0x20, 0x67, 0x72, 0x6F, 0x75, 0x70])
            try garbage.write(to: URL(fileURLWithPath: path))

            let store = SettingsStore(path: path)
            XCTAssertNotNil(store.recoveryNote)
            XCTAssertNil(store.string(forKey: "anything", in: "LastUpdated"))
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            let aside = try XCTUnwrap(names.first { $0.hasPrefix("settings.ini.corrupt-") })
            XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(aside)), garbage, "nothing is lost")

            store.setString("kept", forKey: "after", in: "Recovered")
            store.flush()
            XCTAssertEqual(SettingsStore(path: path).string(forKey: "after", in: "Recovered"), "kept")
        }
    }

    func testManySettersWriteTheFileOnceWhenTheMainLoopIsIdle() throws {
        try onMain {
            let folder = temporaryDirectory()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("settings.ini").path
            let writes = FileWrites(of: path)
            let store = SettingsStore(path: path)
            for index in 0..<50 { store.setInteger(index, forKey: "key\(index)", in: "Many") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing written while the setters run")
            XCTAssertTrue(store.hasUnsavedChanges)

            XCTAssertTrue(GtkTestEnvironment.iterate { !store.hasUnsavedChanges }, "saved once the main loop is idle")
            XCTAssertTrue(GtkTestEnvironment.iterate { writes.count >= 1 }, "the file was written")
            // Time for a second write to be reported, which must not come: nothing marks its absence.
            GtkTestEnvironment.iterate(for: 0.3)
            XCTAssertEqual(writes.count, 1, "50 setters, one write")
            let reopened = SettingsStore(path: path)
            XCTAssertEqual((0..<50).map { reopened.integer(forKey: "key\($0)", in: "Many") }, (0..<50).map { $0 })
        }
    }

    func testFlushSavesAtOnceAndLeavesNothingForLater() {
        onMain {
            let path = temporaryDirectory().appendingPathComponent("settings.ini").path
            let store = SettingsStore(path: path)
            store.setString("now", forKey: "when", in: "Flush")
            store.flush()
            XCTAssertFalse(store.hasUnsavedChanges)
            XCTAssertEqual(SettingsStore(path: path).string(forKey: "when", in: "Flush"), "now", "on disk before the loop runs")
        }
    }

    /// A settings file that is there but cannot be read is not damaged: nothing is moved, nothing
    /// saved over it, and the store says why. A folder where the file should be is such a fault
    /// on any machine; a file without read permission is one too, except for root.
    func testAFileThatCannotBeReadIsNeitherMovedNorOverwritten() throws {
        try onMain {
            let folder = temporaryDirectory()
            let blocked = folder.appendingPathComponent("blocked.ini")
            try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
            let store = SettingsStore(path: blocked.path)
            XCTAssertNotNil(store.unreadableReason)
            XCTAssertNil(store.recoveryNote, "not treated as damaged")
            XCTAssertNil(store.setAsidePath)
            store.setString("x", forKey: "y", in: "Z")
            store.flush()
            var isFolder: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: blocked.path, isDirectory: &isFolder) && isFolder.boolValue,
                          "left where it was")

            guard geteuid() != 0 else { return }
            let locked = folder.appendingPathComponent("locked.ini")
            try Data("[Window]\nwidth=900\n".utf8).write(to: locked)
            try FileManager.default.setAttributes([.posixPermissions: 0o200], ofItemAtPath: locked.path)
            let denied = SettingsStore(path: locked.path)
            XCTAssertNotNil(denied.unreadableReason)
            denied.setInteger(1, forKey: "width", in: "Window")
            denied.flush()
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: locked.path)
            XCTAssertEqual(SettingsStore(path: locked.path).integer(forKey: "width", in: "Window"), 900, "the user's settings are still there")
        }
    }
}

/// Counts the times a file is written whole, as GLib saves it: a new file renamed over the old
/// one, which the kernel reports on the folder as IN_MOVED_TO with the file's name (inotify).
private final class FileWrites {
    private let descriptor: Int32
    private let name: String
    private var seen = 0

    init(of path: String) {
        name = (path as NSString).lastPathComponent
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        inotify_add_watch(descriptor, (path as NSString).deletingLastPathComponent, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE))
    }

    deinit { close(descriptor) }

    /// The writes reported so far.
    var count: Int {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let length = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard length > 0 else { break }
            var offset = 0
            while offset < length {
                let (mask, nameLength) = buffer.withUnsafeBytes { bytes in
                    (bytes.load(fromByteOffset: offset + 4, as: UInt32.self), Int(bytes.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<(offset + 16 + nameLength)].prefix { $0 != 0 }
                let moved = mask & UInt32(IN_MOVED_TO) != 0
                let written = mask & UInt32(IN_CLOSE_WRITE) != 0
                if String(decoding: nameBytes, as: UTF8.self) == name, moved || written { seen += 1 }
                offset += 16 + nameLength
            }
        }
        return seen
    }
}
