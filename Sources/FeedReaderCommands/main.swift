import CMalloc
import Foundation
import ReaderCommands

// `feed-reader-commands`, which `feed-reader` execs for a command line with an option: the
// window-less commands (--sync, --parse, --import and the rest) run here, in a process of FeedCore
// alone; everything else (--help, --extract, GApplication's own options, a command line with a
// mistake) goes to the window program, which replaces this one.

// The commands' messages in the user's language.
setlocale(LC_ALL, "")

// glibc gives each thread that allocates its own arena, up to 8 a core, and memory freed in one
// stays there for it; a sync's pages pass through several threads. Two arenas took 2.4 MB off a
// sync's peak, as fast (docs/performance.md, Sync).
mallopt(M_ARENA_MAX, 2)

if let command = CommandLineChoice.command(in: CommandLine.argc, CommandLine.unsafeArgv,
                                             options: CommandLineOption.all(extracting: nil)) {
    let status = await command()
    CommandStore.closeOpened()
    exit(status)
}
WindowProgram.replaceThisProcess()
