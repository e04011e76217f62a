@testable import AppSupport
import Foundation
import XCTest
@testable import RefreshGtk

/// Every program finds its data the same way: the environment, the source tree around a build
/// folder, then the installed prefix.
final class DataDirectoryTests: XCTestCase {
    func testTheEnvironmentThenTheBuildTreeThenThePrefix() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("data-directory-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let tree = root.appendingPathComponent("tree")
        for folder in ["data/gallery", ".build/x86_64-unknown-linux-gnu/debug/locale", "prefix/bin", "prefix/share/locale"] {
            try FileManager.default.createDirectory(at: tree.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        // Installed in /usr/bin, a program has glibc's `locale` program beside it: a file, not its catalogs.
        try Data("#!/bin/sh\n".utf8).write(to: tree.appendingPathComponent("prefix/bin/locale"))
        let built = tree.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/refresh-gallery")
        let installed = tree.appendingPathComponent("prefix/bin/refresh-gallery")
        // A program another one execs lives in the package's own folder under libexec.
        let execed = tree.appendingPathComponent("prefix/libexec/refresh-gallery/gallery-window")
        let cases: [(environment: [String: String], executable: URL, buildTreePath: String, expected: String)] = [
            (["REFRESH_DATA": "/chosen"], built, "data/gallery", "/chosen"),
            (["REFRESH_DATA": ""], built, "data/gallery", "tree/data/gallery"),
            ([:], built, "data/gallery", "tree/data/gallery"),
            ([:], built, "locale", "tree/.build/x86_64-unknown-linux-gnu/debug/locale"),
            ([:], installed, "locale", "tree/prefix/share/locale"),
            ([:], installed, "data/nowhere", "tree/prefix/share/locale"),
            ([:], execed, "data/nowhere", "tree/prefix/share/locale"),
        ]
        for (environment, executable, buildTreePath, expected) in cases {
            let found = DataDirectory.find(environmentVariable: "REFRESH_DATA", buildTreePath: buildTreePath,
                                           installedPath: "share/locale", environment: environment, executable: executable)
            let expectedPath = expected.hasPrefix("/") ? expected : root.appendingPathComponent(expected).path
            XCTAssertEqual(found.standardizedFileURL.path, URL(fileURLWithPath: expectedPath).standardizedFileURL.path,
                           "\(environment), \(executable.path), \(buildTreePath)")
        }
        // A file is looked for as a file: the folder of the same name in the build tree is passed over.
        try Data("bundle".utf8).write(to: tree.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/app.gresource"))
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("prefix/bin/locale.d"), withIntermediateDirectories: true)
        for (executable, name, expected) in [(built, "app.gresource", "tree/.build/x86_64-unknown-linux-gnu/debug/app.gresource"),
                                             (installed, "locale.d", "tree/prefix/share/app/locale.d")] {
            let found = DataDirectory.find(environmentVariable: "REFRESH_DATA", buildTreePath: name, installedPath: "share/app/\(name)",
                                           environment: [:], executable: executable, findsFolder: false)
            XCTAssertEqual(found.standardizedFileURL.path, root.appendingPathComponent(expected).standardizedFileURL.path, name)
        }
    }
}
