import Foundation

/// Finds a folder of a program's data the one way every program of the project does: a folder
/// named by an environment variable, else the source tree's copy when the program runs from a
/// build folder inside it, else the installed copy under the program's prefix.
public enum DataDirectory {
    /// The first of these that exists: `$environmentVariable`; `buildTreePath` (such as
    /// `data/gallery`) in the executable's folder or one of the three above it, where a SwiftPM build folder
    /// in the source tree finds the tree's own data; `PREFIX/installedPath` for an executable
    /// installed as `PREFIX/bin/program` or `PREFIX/libexec/package/program`. Without any, the installed path, which the caller
    /// reports as missing.
    public static func find(environmentVariable: String, buildTreePath: String, installedPath: String) -> URL {
        find(environmentVariable: environmentVariable, buildTreePath: buildTreePath, installedPath: installedPath,
             environment: ProcessInfo.processInfo.environment, executable: executable)
    }

    /// The same search for one file of data, such as a compiled resource bundle: in the build
    /// tree only a regular file counts.
    public static func findFile(environmentVariable: String, buildTreePath: String, installedPath: String) -> URL {
        find(environmentVariable: environmentVariable, buildTreePath: buildTreePath, installedPath: installedPath,
             environment: ProcessInfo.processInfo.environment, executable: executable, findsFolder: false)
    }

    static func find(environmentVariable: String, buildTreePath: String, installedPath: String,
                     environment: [String: String], executable: URL, findsFolder: Bool = true) -> URL {
        if let folder = environment[environmentVariable], !folder.isEmpty {
            return URL(fileURLWithPath: folder, isDirectory: true)
        }
        let programFolder = executable.deletingLastPathComponent()
        var folder = programFolder
        // A SwiftPM build runs from <tree>/.build/<triple>/<configuration>/.
        for _ in 0..<4 where folder.path != "/" {
            let candidate = folder.appendingPathComponent(buildTreePath, isDirectory: findsFolder)
            // Of the kind asked for, not anything by that name: installed as /usr/bin/program,
            // `locale` beside it is glibc's program, not a folder of catalogs.
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), isFolder.boolValue == findsFolder {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        // PREFIX/bin/program, or PREFIX/libexec/package/program for a program a command execs.
        let prefix = programFolder.deletingLastPathComponent().lastPathComponent == "libexec"
            ? programFolder.deletingLastPathComponent().deletingLastPathComponent()
            : programFolder.deletingLastPathComponent()
        return prefix.appendingPathComponent(installedPath, isDirectory: findsFolder)
    }

    /// The running executable: /proc/self/exe, which also holds when it was started through
    /// PATH (argv[0] is then a bare name) or a symbolic link.
    public static var executable: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    }
}
