import Foundation
import TestProcesses
import XCTest

/// The package's source tree and its meson-helpers scripts, for tests that check files.
enum PackageScripts {
    /// The package root: `$REFRESHGTK_ROOT` (set by meson-helpers/setup), else the folder above
    /// this file's that holds meson-helpers/ (symbolic links resolved, so a side package that
    /// links Tests/RefreshGtkTests still finds the real tree).
    static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["REFRESHGTK_ROOT"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("meson-helpers/check-po").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// A script of meson-helpers/.
    static func script(_ name: String) -> URL {
        root.appendingPathComponent("meson-helpers").appendingPathComponent(name)
    }

    /// Runs `executable` with `arguments`; returns its exit status and its output and errors together.
    static func run(_ executable: URL, _ arguments: [String] = [], in directory: URL? = nil) -> (status: Int32, output: String) {
        // env(1) changes the directory: posix_spawn has no portable way to.
        let directoryArguments = directory.map { ["--chdir=\($0.path)"] } ?? []
        do {
            let run = try Subprocess("/usr/bin/env", directoryArguments + [executable.path] + arguments).wait()
            return (run.status, run.output + run.errors)
        } catch {
            return (-1, "could not start \(executable.path): \(error)")
        }
    }

    /// The entries of a LINGUAS file, comments and blanks dropped.
    static func linguas(of domain: String) -> [String] {
        let url = root.appendingPathComponent("po/\(domain)/LINGUAS")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").flatMap { line in
            line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace).map(String.init)
        }
    }

    /// Copies `paths` (relative to the root) into a fresh temporary package root.
    static func copy(_ paths: [String]) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("refreshgtk-po-\(UUID().uuidString)")
        for path in paths {
            let target = copy.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent(path), to: target)
        }
        return copy
    }
}
