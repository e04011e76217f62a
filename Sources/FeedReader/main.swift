import CGtk
import Dispatch
import Foundation
import RefreshGtk

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "--parse" {
    guard arguments.count == 3 else {
        FileHandle.standardError.write(Data("usage: feed-reader --parse FILE-OR-URL\n".utf8))
        exit(2)
    }
    // No top-level await: that would make main async and run the GTK loop inside a dispatch job.
    let target = arguments[2]
    Task { exit(await ParseCommand.run(target)) }
    dispatchMain()
}
if arguments.count >= 2, ["--import", "--export"].contains(arguments[1]) {
    guard let command = SubscriptionsCommand(arguments: arguments) else {
        FileHandle.standardError.write(Data(SubscriptionsCommand.usage.utf8))
        exit(2)
    }
    Task { exit(await command.run()) }
    dispatchMain()
}

// With the cairo renderer forced (software rendering: virtual machines, remote X, CI), GDK would
// still set up OpenGL when it opens the display, loading Mesa's llvmpipe: some 45 MB of resident
// libLLVM and a slower start, for a context nothing draws with. Tell it not to.
if ProcessInfo.processInfo.environment["GSK_RENDERER"] == "cairo" {
    let flags = ProcessInfo.processInfo.environment["GDK_DEBUG"].map { $0 + "," } ?? ""
    setenv("GDK_DEBUG", flags + "gl-disable", 1)
}

MainQueueBridge.install()
exit(FeedReaderApp().run())
