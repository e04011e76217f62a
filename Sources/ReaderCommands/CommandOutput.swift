import Foundation

/// What the window-less commands (--import, --sync and the rest) print.
public enum CommandOutput {
    /// Writes `text` and a newline without the window's bidi isolates: a terminal lays out no
    /// paragraphs, and a path copied from it, or read by a script, must be the path alone.
    public static func say(_ text: String, to handle: FileHandle = .standardOutput, terminator: String = "\n") {
        let plain = text.replacingOccurrences(of: "\u{2068}", with: "").replacingOccurrences(of: "\u{2069}", with: "")
        handle.write(Data((plain + terminator).utf8))
    }

    /// Writes `message` as the program's error and returns the exit status of a failure.
    public static func fail(_ message: String) -> Int32 {
        say("feed-reader: " + message, to: .standardError)
        return 1
    }
}
