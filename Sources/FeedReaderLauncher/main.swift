import Foundation
import ReaderCommands

// `feed-reader`: the window-less commands (--sync, --parse, --import and the rest) run here, in
// a process of FeedCore alone; everything else (the window, --help, --extract, GApplication's
// own options, a command line with a mistake) goes to the window program, which replaces this one.

// The commands' messages in the user's language.
setlocale(LC_ALL, "")

if let command = LauncherCommandLine.command(in: CommandLine.argc, CommandLine.unsafeArgv,
                                             options: CommandLineOption.all(extracting: nil)) {
    exit(await command())
}
WindowProgram.replaceThisProcess()
