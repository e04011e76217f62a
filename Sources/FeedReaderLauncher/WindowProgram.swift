import AppSupport
import Foundation
import ReaderCommands

/// `feed-reader-window`, the program of the window (GTK, libadwaita, WebKitGTK), which the
/// launcher becomes for everything but the window-less commands.
enum WindowProgram {
    static let name = "feed-reader-window"

    /// Beside the launcher in a build folder; in `PREFIX/libexec/feed-reader`, the package's own
    /// folder there as Debian has it, when installed as `PREFIX/bin/feed-reader`.
    static var path: String {
        let folder = DataDirectory.executable.deletingLastPathComponent()
        let beside = folder.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return folder.deletingLastPathComponent().appendingPathComponent("libexec/feed-reader").appendingPathComponent(name).path
    }

    /// Replaces this process with the window program, given the same arguments: the same
    /// `argv[0]` keeps the program name GLib derives from it, and so the settings file's name.
    static func replaceThisProcess() -> Never {
        let program = path
        execv(program, CommandLine.unsafeArgv)
        let reason = String(cString: strerror(errno))
        // TRANSLATORS: %@ is the path of the program that opens the window, which could not be started.
        exit(CommandOutput.fail(tr("The window program %@ could not be started.").filling(program) + " (\(reason))"))
    }
}
