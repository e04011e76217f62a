import CGtk
import Foundation
import XCTest
@testable import RefreshGtk

/// The GKeyFile store: atomic, escaping keys, and never stopped by a bad file.
final class SettingsStoreTests: XCTestCase {
    func testValuesPersistAcrossInstances() {
        onMain {
            let path = temporaryDirectory().appendingPathComponent("nested/settings.ini").path
            let date = Date(timeIntervalSince1970: 1_790_000_000)
            SettingsStore(path: path).setDate(date, forKey: "header", in: "LastUpdated")
            let store = SettingsStore(path: path)
            store.setInteger(900, forKey: "width", in: "Window")
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
            XCTAssertEqual(SettingsStore(path: path).string(forKey: "after", in: "Recovered"), "kept")
        }
    }
}
