import Foundation
import XCTest

/// RefreshGtk's public surface is the refresh library and what an adopter needs: the plumbing it
/// shares with the feed reader (AppSupport) stays out of it. Each test type-checks a small
/// adopting program against the modules this test run was built with, as an app's build would.
final class LibrarySurfaceTests: XCTestCase {
    /// The app-only types: none may be reachable through `import RefreshGtk`.
    static let appOnlyTypes = ["SettingsStore", "DataDirectory", "GettextDomain", "LocaleDirectory",
                               "ChosenLanguage", "MessageCatalog", "PluralRule"]

    func testAnAdoptingAppBuildsAgainstThePublicSurface() {
        let result = typecheck("""
            import RefreshGtk
            @MainActor func adopt() {
                MainQueueBridge.install()
                let header = NormalHeader { }
                header.lastUpdatedFile = "/tmp/refresh.ini"
                header.lastUpdatedKey = "feeds"
                RefreshLocalization.setLanguage("de")
                MainThread.after(1) { header.endRefreshing() }
            }
            """)
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testTheAppsPlumbingIsNotPublicInRefreshGtk() {
        let uses = Self.appOnlyTypes.map { "    _ = \($0).self" }.joined(separator: "\n")
        let result = typecheck("""
            import RefreshGtk
            @MainActor func reach() {
            \(uses)
                _ = NormalHeader().store
            }
            """)
        XCTAssertNotEqual(result.status, 0, "an app importing RefreshGtk reached the app's plumbing")
        for name in Self.appOnlyTypes {
            XCTAssertTrue(result.output.contains("cannot find '\(name)' in scope"),
                          "\(name) is visible to an app that imports RefreshGtk:\n\(result.output)")
        }
        XCTAssertTrue(result.output.contains("'store' is inaccessible due to 'internal' protection level"),
                      "the header's settings store is public:\n\(result.output)")
    }

    /// Type-checks `source` as an app's file that sees the modules of this build and GTK's headers.
    private func typecheck(_ source: String) -> (status: Int32, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("surface-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        XCTAssertNoThrow(try source.write(to: file, atomically: true, encoding: .utf8))
        // The test bundle's executable sits beside the build's Modules folder.
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
        let modules = executable.deletingLastPathComponent().appendingPathComponent("Modules")
        let gtkFlags = PackageScripts.run(URL(fileURLWithPath: "/usr/bin/pkg-config"), ["--cflags", "gtk4"])
        XCTAssertEqual(gtkFlags.status, 0, gtkFlags.output)
        // The C modules the library's Swift modules import, as SwiftPM hands an adopting app's build.
        let moduleMaps = ["CGtk"].map { PackageScripts.root.appendingPathComponent("Library/Sources/\($0)/module.modulemap") }
        var arguments = ["swiftc", "-typecheck", "-swift-version", "6", file.path, "-I", modules.path]
        for moduleMap in moduleMaps { arguments += ["-Xcc", "-fmodule-map-file=\(moduleMap.path)"] }
        for flag in gtkFlags.output.split(whereSeparator: \.isWhitespace) { arguments += ["-Xcc", String(flag)] }
        return PackageScripts.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, in: folder)
    }
}
