// The strings, messages and commands the window shares with `feed-reader`'s window-less
// commands live in ReaderCommands, which links nothing of GTK; every file of the window uses them.
@_exported import ReaderCommands
