import AppSupport
import Foundation
import ReaderCommands

/// `feed-reader-window`, the program of the window (GTK, libadwaita, WebKitGTK), which the
/// commands' program becomes for everything but the window-less commands.
enum WindowProgram {
    static let name = "feed-reader-window"

    /// Beside this program: both in a build folder, or both in `PREFIX/libexec/feed-reader`, the
    /// package's own folder there as Debian has it; else in that folder, for this program run
    /// from `PREFIX/bin`.
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
