import CGtk
import Foundation
import XCTest
@testable import RefreshGtk

/// The headers' own key file of last-updated times: kept across runs, shared by the headers
/// naming one file, taking over the times earlier versions kept in the app's settings file, and
/// never stopped by a damaged file.
final class LastUpdatedStoreTests: XCTestCase {
    func testATimePersistsAndHeadersNamingOneFileShareIt() {
        onMain {
            let path = temporaryDirectory().appendingPathComponent("nested/refreshgtk.ini").path
            let first = NormalHeader(), second = StateHeader()
            for header in [first, second] as [RefreshHeader] {
                header.lastUpdatedFile = path
                header.lastUpdatedKey = "feeds"
            }
            XCTAssertNil(first.lastUpdated)
            first.recordLastUpdated()
            XCTAssertNotNil(second.lastUpdated, "the second header shows the time the first recorded")
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            XCTAssertTrue(text.contains("[LastUpdated]") && text.contains("feeds="), "saved at once:\n\(text)")
        }
    }

    /// Earlier versions kept the times in `settings.ini` beside the default file: a time found
    /// there is shown, and kept in the headers' own file from then on.
    func testATimeKeptInTheOldSettingsFileIsTakenOver() throws {
        try onMain {
            let folder = temporaryDirectory().appendingPathComponent("state")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let legacy = folder.appendingPathComponent("settings.ini")
            try "[Window]\nwidth=900\n\n[LastUpdated]\nfeed%3A12=2026-03-05T14:02:00Z\n".write(to: legacy, atomically: true, encoding: .utf8)
            let path = folder.appendingPathComponent("refreshgtk.ini").path
            let header = NormalHeader()
            header.lastUpdatedFile = path
            header.lastUpdatedKey = "feed:12"
            XCTAssertEqual(header.lastUpdated, Date(timeIntervalSince1970: 1_772_719_320))
            let own = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(own.contains("feed%3A12=2026-03-05T14:02:00Z"), own)
            XCTAssertEqual(try String(contentsOf: legacy, encoding: .utf8).contains("width=900"), true, "the app's file is left as it was")
            header.lastUpdatedKey = "other"
            XCTAssertNil(header.lastUpdated, "a key neither file has is never updated")
        }
    }

    func testADamagedFileIsSetAsideAndTheStoreStartsEmpty() throws {
        try onMain {
            let folder = temporaryDirectory().appendingPathComponent("damaged")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("refreshgtk.ini").path
            try Data([0x5B, 0xFF, 0xFE, 0x0A, 0x3D, 0x3D]).write(to: URL(fileURLWithPath: path))
            let header = NormalHeader()
            header.lastUpdatedFile = path
            XCTAssertNil(header.lastUpdated)
            header.recordLastUpdated()
            XCTAssertNotNil(header.lastUpdated)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            XCTAssertTrue(names.contains { $0.hasPrefix("refreshgtk.ini.corrupt-") }, "the damaged file is kept aside: \(names)")
        }
    }
}
