import Foundation
import TestProcesses

/// Makes a folder read-only for the duration of `body`: by permissions for an ordinary user,
/// and for root, whom permissions do not stop, by mounting it read-only over itself.
public func withReadOnlyFolder<T>(_ folder: URL, _ body: () async throws -> T) async throws -> T {
    if getuid() == 0 {
        try runTool("/bin/mount", "--bind", folder.path, folder.path)
        defer { try? runTool("/bin/umount", folder.path) }
        try runTool("/bin/mount", "-o", "remount,ro,bind", folder.path)
        return try await body()
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
    return try await body()
}

/// The same for synchronous code, such as GTK tests on the main thread.
public func withReadOnlyFolder<T>(_ folder: URL, _ body: () throws -> T) throws -> T {
    if getuid() == 0 {
        try runTool("/bin/mount", "--bind", folder.path, folder.path)
        defer { try? runTool("/bin/umount", folder.path) }
        try runTool("/bin/mount", "-o", "remount,ro,bind", folder.path)
        return try body()
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
    return try body()
}

private struct CommandFailed: Error {
    var command: [String]
    var errors: String
}

/// Runs `executable` with `arguments` to its end; throws when it fails. A `Subprocess`: Foundation's
/// Process once never saw mount end, and the test waited on it until the pass's time limit.
public func runTool(_ executable: String, _ arguments: String...) throws {
    let (status, _, errors) = try Subprocess(executable, arguments).wait()
    guard status == 0 else { throw CommandFailed(command: [executable] + arguments, errors: errors) }
}
