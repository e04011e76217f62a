import CGtk
import Foundation

/// A small settings store in a GKeyFile: last-updated times, window size, the selected feed.
///
/// Every write saves the file atomically (GLib writes a temporary file and renames it). A file
/// that cannot be read or parsed never stops the app: it is moved aside, a warning is logged,
/// and the store starts empty.
@MainActor
public final class SettingsStore {
    /// The store under `$XDG_STATE_HOME/<program name>/settings.ini`.
    public static let standard = SettingsStore(path: defaultPath())

    public let path: String
    private var keyFile: OpaquePointer
    /// Why the file on disk was set aside at load, if it was.
    public private(set) var recoveryNote: String?
    /// Where the unreadable file was moved at load, so an app can tell its user.
    public private(set) var setAsidePath: String?

    public init(path: String) {
        self.path = path
        keyFile = g_key_file_new()
        load()
    }

    isolated deinit { g_key_file_free(keyFile) }

    public static func defaultPath(program: String? = nil) -> String {
        let name = program ?? g_get_prgname().map { String(cString: $0) } ?? "refreshgtk"
        let base = String(cString: g_get_user_state_dir())
        return "\(base)/\(name)/settings.ini"
    }

    // MARK: Values

    public func string(forKey key: String, in group: String) -> String? {
        guard let value = g_key_file_get_string(keyFile, group, Self.escape(key), nil) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    public func setString(_ value: String?, forKey key: String, in group: String) {
        if let value {
            g_key_file_set_string(keyFile, group, Self.escape(key), value)
        } else {
            g_key_file_remove_key(keyFile, group, Self.escape(key), nil)
        }
        save()
    }

    public func integer(forKey key: String, in group: String) -> Int? {
        string(forKey: key, in: group).flatMap { Int($0) }
    }

    public func setInteger(_ value: Int?, forKey key: String, in group: String) {
        setString(value.map(String.init), forKey: key, in: group)
    }

    public func date(forKey key: String, in group: String) -> Date? {
        guard let text = string(forKey: key, in: group) else { return nil }
        return try? Date(text, strategy: .iso8601)
    }

    public func setDate(_ value: Date?, forKey key: String, in group: String) {
        setString(value.map { $0.formatted(.iso8601) }, forKey: key, in: group)
    }

    // MARK: File

    private func load() {
        guard FileManager.default.fileExists(atPath: path) else { return }
        var error: UnsafeMutablePointer<GError>?
        if g_key_file_load_from_file(keyFile, path, G_KEY_FILE_KEEP_COMMENTS, &error) != 0 { return }
        let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        g_clear_error(&error)
        g_key_file_free(keyFile)
        keyFile = g_key_file_new()
        let stamp = Int(Date().timeIntervalSince1970)
        let aside = "\(path).corrupt-\(stamp)"
        if rename(path, aside) == 0 {
            setAsidePath = aside
            recoveryNote = "Settings file \(path) could not be read (\(reason)); moved it to \(aside) and started with empty settings."
        } else {
            recoveryNote = "Settings file \(path) could not be read (\(reason)) nor moved aside; starting with empty settings."
        }
        cgtk_log_warning("RefreshGtk", recoveryNote!)
    }

    private func save() {
        let directory = (path as NSString).deletingLastPathComponent
        g_mkdir_with_parents(directory, 0o700)
        var error: UnsafeMutablePointer<GError>?
        if g_key_file_save_to_file(keyFile, path, &error) == 0 {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            cgtk_log_warning("RefreshGtk", "Could not save settings to \(path): \(reason)")
        }
    }

    /// GKeyFile keys cannot hold `=`, brackets, newlines or edge spaces: escape all but a safe set.
    static func escape(_ key: String) -> String {
        var result = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                result.append(Character(UnicodeScalar(byte)))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result.isEmpty ? "%" : result
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
