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

MainQueueBridge.install()
exit(FeedReaderApp().run())
