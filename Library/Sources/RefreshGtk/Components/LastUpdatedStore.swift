import CGtk
import Foundation

/// The key file headers keep their last-updated times in, in its `LastUpdated` group: one
/// ISO 8601 time per key.
///
/// Each change is saved at once (GLib writes a temporary file and renames it): a header records
/// one time per refresh. A file that cannot be parsed is moved aside and the store starts
/// empty; one that cannot be read (no permission, an I/O error) is left as it is, and nothing
/// is saved over it.
@MainActor
final class LastUpdatedStore {
    /// `$XDG_STATE_HOME/<program name>/refreshgtk.ini`.
    static var defaultPath: String {
        let name = g_get_prgname().map { String(cString: $0) } ?? "refreshgtk"
        return "\(String(cString: g_get_user_state_dir()))/\(name)/refreshgtk.ini"
    }

    /// The one store of the process for each path, so that headers naming one file save together.
    static func shared(at path: String) -> LastUpdatedStore {
        if let store = stores[path] { return store }
        let store = LastUpdatedStore(path: path)
        stores[path] = store
        return store
    }

    private static var stores: [String: LastUpdatedStore] = [:]
    static let group = "LastUpdated"

    let path: String
    private var keyFile: OpaquePointer
    /// Whether the file exists but could not be read: then nothing is saved over it.
    private var isUnreadable = false
    /// The settings file in the same folder, where earlier versions kept the times.
    private lazy var legacy: OpaquePointer? = Self.loadLegacy(beside: path)

    /// A store of its own for `path`; headers take ``shared(at:)``'s.
    init(path: String) {
        self.path = path
        keyFile = g_key_file_new()
        load()
    }

    isolated deinit {
        g_key_file_free(keyFile)
        if let legacy { g_key_file_free(legacy) }
    }

    /// The time stored under `key`; a time an earlier version kept in the settings file beside
    /// this one is taken over the first time it is asked for.
    func date(forKey key: String) -> Date? {
        let escaped = Self.escape(key)
        if let value = g_key_file_get_string(keyFile, Self.group, escaped, nil) {
            defer { g_free(value) }
            return try? Date(String(cString: value), strategy: .iso8601)
        }
        guard let legacy, let value = g_key_file_get_string(legacy, Self.group, escaped, nil) else { return nil }
        defer { g_free(value) }
        guard let date = try? Date(String(cString: value), strategy: .iso8601) else { return nil }
        setDate(date, forKey: key)
        return date
    }

    /// Stores `date` under `key` (nil: none), and saves the file.
    func setDate(_ date: Date?, forKey key: String) {
        if let date {
            g_key_file_set_string(keyFile, Self.group, Self.escape(key), date.formatted(.iso8601))
        } else {
            g_key_file_remove_key(keyFile, Self.group, Self.escape(key), nil)
        }
        save()
    }

    private func load() {
        guard FileManager.default.fileExists(atPath: path) else { return }
        var error: UnsafeMutablePointer<GError>?
        if g_key_file_load_from_file(keyFile, path, G_KEY_FILE_NONE, &error) != 0 { return }
        // GLib reports a failed read in its file domain; a parse error on anything but a regular
        // file is no damage either.
        var info = stat()
        let isDamaged = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
            && error?.pointee.domain == g_key_file_error_quark()
        g_clear_error(&error)
        g_key_file_free(keyFile)
        keyFile = g_key_file_new()
        if isDamaged {
            rename(path, "\(path).corrupt-\(Int(Date().timeIntervalSince1970))")
        } else {
            isUnreadable = true
        }
    }

    private func save() {
        guard !isUnreadable else { return }
        g_mkdir_with_parents((path as NSString).deletingLastPathComponent, 0o700)
        g_key_file_save_to_file(keyFile, path, nil)
    }

    /// The settings file earlier versions kept the times in, `settings.ini` beside `path`, if any.
    private static func loadLegacy(beside path: String) -> OpaquePointer? {
        let legacyPath = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("settings.ini")
        guard legacyPath != path, let file = g_key_file_new() else { return nil }
        guard g_key_file_load_from_file(file, legacyPath, G_KEY_FILE_NONE, nil) != 0 else {
            g_key_file_free(file)
            return nil
        }
        return file
    }

    /// GKeyFile keys cannot hold `=`, brackets, newlines or edge spaces: all but a safe set is
    /// escaped, as the settings file of earlier versions did.
    static func escape(_ key: String) -> String {
        var result = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                result.append(Character(UnicodeScalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count < 2 ? "0" + hex : hex)
            }
        }
        return result.isEmpty ? "%" : result
    }
}
