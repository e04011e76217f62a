import Foundation

/// Writes diagnostics for the command-line modes.
enum FileHandleOutput {
    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
