import Foundation

extension ErrorReason {
    /// The reason behind an English sentence that versions before error codes stored in
    /// `feeds.lastError`: the common ones are read back into their codes, so they are shown in the
    /// current language; any other keeps its text as a technical detail, never shown as the reason.
    init(legacyText text: String) {
        if let status = Self.value(in: text, after: "Server returned HTTP status ") ?? Self.value(in: text, after: "Server returned "),
           let code = Int(status.prefix { $0.isNumber }) {
            self.init(.httpStatus, [.status: String(code)])
        } else if let seconds = Self.value(in: text, after: "Timed out after "), seconds.hasSuffix(" s") {
            self.init(.timedOut, [.seconds: String(seconds.dropLast(2))])
        } else if let path = Self.value(in: text, after: "No such file: ") {
            self.init(.fileNotFound, [.path: path])
        } else if let host = Self.value(in: text, after: "Could not find the server ") {
            self.init(.hostNotFound, [.host: host])
        } else if let host = Self.value(in: text, after: "Could not connect to ") {
            self.init(.cannotConnect, [.host: host])
        } else if let host = Self.value(in: text, after: "Secure connection to "), host.hasSuffix(" failed") {
            self.init(.secureConnectionFailed, [.host: String(host.dropLast(" failed".count))])
        } else if text == "Cancelled" {
            self.init(.cancelled)
        } else {
            self.init(.unrecorded, [.technical: text])
        }
    }

    /// The rest of `text` after `prefix`, when it starts so and something follows.
    private static func value(in text: String, after prefix: String) -> String? {
        guard text.hasPrefix(prefix), text.count > prefix.count else { return nil }
        return String(text.dropFirst(prefix.count))
    }
}
