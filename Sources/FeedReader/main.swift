import CGtk
import RefreshGtk

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "--parse" {
    guard arguments.count == 3 else {
        FileHandleOutput.standardError("usage: feed-reader --parse FILE-OR-URL\n")
        exit(2)
    }
    exit(await ParseCommand.run(arguments[2]))
}

MainQueueBridge.install()
exit(FeedReaderApp().run())
