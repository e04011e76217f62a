import CGLib
import Foundation

/// A small settings store in a GKeyFile: last-updated times, window size, the selected feed.
///
/// Setters change the values at once and save the file when the main loop is next idle, so
/// many setters in a row write it once; ``flush()`` saves at once, and what is still unsaved
/// when the process exits is saved then. Each save is atomic (GLib writes a temporary file and
/// renames it). A file that cannot be parsed never stops the app: it is moved aside, a warning
/// is logged, and the store starts empty. A file that exists but cannot be read (no permission,
/// an I/O error) is not damaged: it is left as it is, the store starts empty and saves nothing
/// over it, and ``unreadableReason`` says why.
@MainActor
public final class SettingsStore {
    /// The store under `$XDG_STATE_HOME/<program name>/settings.ini`.
    public static let standard = SettingsStore(path: defaultPath())

    /// The stores handed out by ``shared(at:)``, by path.
    private static var sharedStores: [String: SettingsStore] = [:]

    /// The one store of the process for the file at `path` (``standard`` for its path), so that
    /// everything keeping values in one file saves them together rather than over each other.
    public static func shared(at path: String) -> SettingsStore {
        if path == standard.path { return standard }
        if let store = sharedStores[path] { return store }
        let store = SettingsStore(path: path)
        sharedStores[path] = store
        return store
    }

    public let path: String
    private var keyFile: OpaquePointer
    /// Why the file on disk was set aside at load, if it was.
    public private(set) var recoveryNote: String?
    /// Where the unreadable file was moved at load, so an app can tell its user.
    public private(set) var setAsidePath: String?
    /// Why the file on disk could not be read at load though it is not damaged (GLib's words,
    /// such as "Permission denied"); nil when it was read. While set, nothing is saved over it.
    public private(set) var unreadableReason: String?
    /// Whether values changed since the file was last saved.
    private(set) var hasUnsavedChanges = false
    /// The idle source that saves the changes, while one is waiting.
    private var pendingSave: guint = 0

    public init(path: String) {
        self.path = path
        keyFile = g_key_file_new()
        load()
    }

    isolated deinit {
        if pendingSave != 0 { g_source_remove(pendingSave) }
        g_key_file_free(keyFile)
    }

    /// A file named `name` in this file's folder, for state kept beside the settings.
    public func pathBeside(_ name: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name).path
    }

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
        scheduleSave()
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

    /// Saves the changes now, if there are any, rather than when the main loop is next idle.
    public func flush() {
        if pendingSave != 0 {
            g_source_remove(pendingSave)
            pendingSave = 0
        }
        guard hasUnsavedChanges else { return }
        hasUnsavedChanges = false
        Self.unsaved.removeValue(forKey: ObjectIdentifier(self))
        save()
    }

    private func scheduleSave() {
        hasUnsavedChanges = true
        Self.unsaved[ObjectIdentifier(self)] = self
        Self.saveAtExit()
        guard pendingSave == 0 else { return }
        // Low priority: after input, frames and timers, when the main loop has nothing more urgent.
        let weakSelf = Unmanaged.passRetained(WeakStore(self)).toOpaque()
        pendingSave = g_idle_add_full(G_PRIORITY_LOW, { data in
            MainActor.assumeIsolated {
                guard let store = Unmanaged<WeakStore>.fromOpaque(data!).takeUnretainedValue().store else { return }
                store.pendingSave = 0
                store.flush()
            }
            return gboolean(0)
        }, weakSelf, { data in
            Unmanaged<WeakStore>.fromOpaque(data!).release()
        })
    }

    /// The store an idle save is for, not kept alive by it.
    private final class WeakStore {
        weak var store: SettingsStore?
        init(_ store: SettingsStore) { self.store = store }
    }

    /// The stores with changes not yet saved, kept alive until they are.
    private static var unsaved: [ObjectIdentifier: SettingsStore] = [:]
    private static var savesAtExit = false

    /// Saves every store's changes when the process exits, the main loop gone with its idle sources.
    private static func saveAtExit() {
        guard !savesAtExit else { return }
        savesAtExit = true
        atexit {
            // Only the main thread may touch the stores; a process ended from another saves nothing more.
            guard Thread.isMainThread else { return }
            MainActor.assumeIsolated {
                for store in SettingsStore.unsaved.values { store.flush() }
            }
        }
    }

    private func load() {
        guard FileManager.default.fileExists(atPath: path) else { return }
        var error: UnsafeMutablePointer<GError>?
        if g_key_file_load_from_file(keyFile, path, G_KEY_FILE_KEEP_COMMENTS, &error) != 0 { return }
        let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        // Damaged means read but not understood. GLib reports a read that failed in its file
        // domain, and anything but a regular file as a parse error, so that is looked at first.
        var info = stat()
        let isRegularFile = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        let isDamaged = isRegularFile && error.map {
            $0.pointee.domain == g_key_file_error_quark()
                && ($0.pointee.code == G_KEY_FILE_ERROR_PARSE.rawValue || $0.pointee.code == G_KEY_FILE_ERROR_UNKNOWN_ENCODING.rawValue)
        } ?? false
        g_clear_error(&error)
        g_key_file_free(keyFile)
        keyFile = g_key_file_new()
        guard isDamaged else {
            // Not read, not damaged (no permission, an I/O error): moving it aside or saving over
            // it would lose settings that are still there.
            unreadableReason = reason
            cglib_log_warning("RefreshGtk", "Settings file \(path) could not be read (\(reason)); using defaults and saving nothing over it.")
            return
        }
        let stamp = Int(Date().timeIntervalSince1970)
        let aside = "\(path).corrupt-\(stamp)"
        if rename(path, aside) == 0 {
            setAsidePath = aside
            recoveryNote = "Settings file \(path) could not be read (\(reason)); moved it to \(aside) and started with empty settings."
        } else {
            recoveryNote = "Settings file \(path) could not be read (\(reason)) nor moved aside; starting with empty settings."
        }
        cglib_log_warning("RefreshGtk", recoveryNote!)
    }

    private func save() {
        guard unreadableReason == nil else { return }
        let directory = (path as NSString).deletingLastPathComponent
        g_mkdir_with_parents(directory, 0o700)
        var error: UnsafeMutablePointer<GError>?
        if g_key_file_save_to_file(keyFile, path, &error) == 0 {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            cglib_log_warning("RefreshGtk", "Could not save settings to \(path): \(reason)")
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
