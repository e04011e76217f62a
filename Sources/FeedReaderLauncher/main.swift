import Glibc

// `feed-reader`: hands the command line to the program that runs it, and becomes that program
// before anything else is loaded. It links the C library and the Swift runtime alone, where the
// commands' program loads FeedCore's 52 libraries (curl, SQLite, libxml2, libsecret...), which
// cost every window start 29-96 ms before the window program was even run (docs/performance.md,
// Start-up). A command line with no option (no argument starting with "-", so GLib's parser
// finds none) is the window's, and so is the one D-Bus activation gives (the desktop entry is
// DBusActivatable); any other goes to `feed-reader-commands`, which runs the window-less
// commands and hands the rest (--help, --extract, GApplication's other options, a mistake) to
// the window program, as this launcher did when it was that program.

let arguments = CommandLine.unsafeArgv
let hasOption = (1..<max(1, Int(CommandLine.argc))).contains { index in
    guard let argument = arguments[index], argument.pointee == CChar(UInt8(ascii: "-")) else { return false }
    return strcmp(argument, "--gapplication-service") != 0
}
let programs = hasOption ? [LauncherProgram.commands, .window] : [.window, .commands]
// Each in turn: when the first cannot be run, the other still can (the window program runs
// every command itself, and the commands' program says in the user's language why the window
// program could not be started).
for program in programs {
    execv(program.path, arguments)
}
exit(LauncherProgram.reportFailure(errno))
