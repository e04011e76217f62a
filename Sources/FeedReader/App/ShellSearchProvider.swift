import CGtk
import FeedCore
import Foundation
import ReaderCommands
import RefreshGtk

/// GNOME Shell's overview search: `org.gnome.Shell.SearchProvider2` on the application's D-Bus
/// connection, answered from the full-text index through a read-only connection (`ShellSearch`),
/// so a search never waits on the window's store, starts a refresh or takes a write lock.
/// Opening a result or the search itself is left to `onActivate` and `onLaunch`.
@MainActor
final class ShellSearchProvider {
    static let interfaceName = "org.gnome.Shell.SearchProvider2"
    /// Where the provider is, below the application's object path; the .ini names it too
    /// (data/io.github.refreshgtk.FeedReader.search-provider.ini).
    static let objectPathSuffix = "/SearchProvider"
    /// How many results the Shell is given: it shows a handful a provider.
    nonisolated static let resultCount = 5

    private let search: ShellSearch
    private let iconDirectory: URL
    /// A result chosen: its entry's id and the words searched, and the time of the click.
    var onActivate: ((Int64, String, guint32) -> Void)?
    /// "Show more" chosen: the words searched, and the time of the click.
    var onLaunch: ((String, guint32) -> Void)?
    /// Called around each answer, so a process started only to answer stays until it has.
    var onBusy: ((Bool) -> Void)?

    private var registration: (connection: OpaquePointer, id: guint)?

    init(search: ShellSearch, iconDirectory: URL) {
        self.search = search
        self.iconDirectory = iconDirectory
    }

    isolated deinit {
        unexport()
    }

    /// Answers on `connection` at `path`; false (and a line on standard error) when D-Bus refused it.
    @discardableResult
    func export(on connection: OpaquePointer, at path: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        defer { g_clear_error(&error) }
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error) else { return false }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, _, method, parameters, invocation, provider in
            guard let method, let parameters, let invocation, let provider else { return }
            let name = String(cString: method)
            MainActor.assumeIsolated {
                Unmanaged<ShellSearchProvider>.fromOpaque(provider).takeUnretainedValue()
                    .answer(name, parameters, Invocation(pointer: invocation))
            }
        }
        // The registration keeps the provider until it is undone.
        let retained = Unmanaged.passRetained(self).toOpaque()
        let id = g_dbus_connection_register_object(connection, path, node.pointee.interfaces[0], &vtable, retained, { provider in
            provider.map { Unmanaged<ShellSearchProvider>.fromOpaque($0).release() }
        }, &error)
        guard id != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? ""
            // For a session's log; the Shell only finds no results.
            CommandOutput.say("feed-reader: GNOME Shell's search could not be offered on D-Bus: " + reason, to: .standardError)
            Unmanaged<ShellSearchProvider>.fromOpaque(retained).release()
            return false
        }
        // Kept for the unregistration: the caller may hold the connection for less long.
        g_object_ref(UnsafeMutableRawPointer(connection))
        registration = (connection, id)
        return true
    }

    /// Stops answering.
    func unexport() {
        guard let (connection, id) = registration else { return }
        registration = nil
        g_dbus_connection_unregister_object(connection, id)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// The method call in flight; GDBus lets it be answered from any thread, once.
    private struct Invocation: @unchecked Sendable {
        let pointer: OpaquePointer

        func returnValue(_ value: OpaquePointer?) {
            g_dbus_method_invocation_return_value(pointer, value)
        }
    }

    private func answer(_ method: String, _ parameters: OpaquePointer, _ invocation: Invocation) {
        switch method {
        case "GetInitialResultSet":
            answerResults(for: Self.text(of: Self.strings(parameters, 0)), invocation)
        case "GetSubsearchResultSet":
            // The narrower search ranked again: the index answers it as fast as a filter of the last.
            answerResults(for: Self.text(of: Self.strings(parameters, 1)), invocation)
        case "GetResultMetas":
            answerMetas(for: Self.strings(parameters, 0).compactMap { Int64($0) }, invocation)
        case "ActivateResult":
            let id = Self.string(parameters, 0)
            let terms = Self.strings(parameters, 1)
            let time = Self.uint(parameters, 2)
            invocation.returnValue(nil)
            if let id = Int64(id) { onActivate?(id, Self.text(of: terms), time) }
        case "LaunchSearch":
            let terms = Self.strings(parameters, 0)
            let time = Self.uint(parameters, 1)
            invocation.returnValue(nil)
            onLaunch?(Self.text(of: terms), time)
        default:
            g_dbus_method_invocation_return_dbus_error(invocation.pointer, "org.freedesktop.DBus.Error.UnknownMethod", method)
        }
    }

    private func answerResults(for text: String, _ invocation: Invocation) {
        onBusy?(true)
        Task { @MainActor [search] in
            let hits = await Task.detached { search.hits(for: text, limit: Self.resultCount) }.value
            let ids = hits.map { String($0.id) }
            invocation.returnValue(Self.tuple(Self.stringArray(ids)))
            self.onBusy?(false)
        }
    }

    private func answerMetas(for ids: [Int64], _ invocation: Invocation) {
        onBusy?(true)
        Task { @MainActor [search] in
            let hits = await Task.detached { search.hits(ids: ids) }.value
            let metas = hits.map { self.meta(of: $0) }
            let type = g_variant_type_new("a{sv}")
            defer { g_variant_type_free(type) }
            var children = metas
            let array = children.withUnsafeMutableBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
            invocation.returnValue(Self.tuple(array))
            self.onBusy?(false)
        }
    }

    /// What the Shell shows of `hit`: its title, its feed and date, the feed's icon (the app's
    /// when none is cached).
    private func meta(of hit: ShellSearch.Hit) -> OpaquePointer? {
        let icon: OpaquePointer?
        if let path = FeedIcons.file(forFeedAt: hit.feedURL, in: iconDirectory)?.path, let file = g_file_new_for_path(path) {
            icon = g_file_icon_new(file)
            g_object_unref(UnsafeMutableRawPointer(file))
        } else {
            icon = g_themed_icon_new(FeedReaderApp.applicationID)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(icon)) }
        let title = hit.title.flatMap { $0.isEmpty ? nil : $0 } ?? tr("Untitled")
        // TRANSLATORS: a search result's line in GNOME Shell: the feed's name, then the entry's date.
        let description = tr("%1$@ · %2$@").filling(hit.feedTitle, phrase: EntryDateText.text(for: hit.date))
        var entries: [OpaquePointer?] = [
            Self.entry("id", g_variant_new_string(String(hit.id))),
            Self.entry("name", g_variant_new_string(title)),
            Self.entry("description", g_variant_new_string(description)),
        ]
        if let names = g_icon_to_string(icon) {
            entries.append(Self.entry("gicon", g_variant_new_string(names)))
            g_free(names)
        }
        if let serialized = g_icon_serialize(icon) {
            entries.append(Self.entry("icon", serialized))
            g_variant_unref(serialized)
        }
        return entries.withUnsafeMutableBufferPointer { g_variant_new_array(nil, $0.baseAddress, gsize($0.count)) }
    }

    private static func entry(_ key: String, _ value: OpaquePointer?) -> OpaquePointer? {
        g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))
    }

    private static func tuple(_ child: OpaquePointer?) -> OpaquePointer? {
        var children = [child]
        return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
    }

    private static func stringArray(_ strings: [String]) -> OpaquePointer? {
        var children = strings.map { g_variant_new_string($0) }
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        return children.withUnsafeMutableBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
    }

    /// The words searched, as one query: the Shell splits what was typed at spaces.
    private static func text(of terms: [String]) -> String {
        terms.joined(separator: " ")
    }

    private static func child(_ parameters: OpaquePointer, _ index: Int) -> OpaquePointer {
        g_variant_get_child_value(parameters, gsize(index))
    }

    private static func strings(_ parameters: OpaquePointer, _ index: Int) -> [String] {
        let value = child(parameters, index)
        defer { g_variant_unref(value) }
        return (0..<Int(g_variant_n_children(value))).map { position in
            let item = g_variant_get_child_value(value, gsize(position))
            defer { g_variant_unref(item) }
            return String(cString: g_variant_get_string(item, nil))
        }
    }

    private static func string(_ parameters: OpaquePointer, _ index: Int) -> String {
        let value = child(parameters, index)
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }

    private static func uint(_ parameters: OpaquePointer, _ index: Int) -> guint32 {
        let value = child(parameters, index)
        defer { g_variant_unref(value) }
        return g_variant_get_uint32(value)
    }

    private static let introspection = """
        <node>
          <interface name="org.gnome.Shell.SearchProvider2">
            <method name="GetInitialResultSet">
              <arg type="as" name="terms" direction="in"/>
              <arg type="as" name="results" direction="out"/>
            </method>
            <method name="GetSubsearchResultSet">
              <arg type="as" name="previous_results" direction="in"/>
              <arg type="as" name="terms" direction="in"/>
              <arg type="as" name="results" direction="out"/>
            </method>
            <method name="GetResultMetas">
              <arg type="as" name="identifiers" direction="in"/>
              <arg type="aa{sv}" name="metas" direction="out"/>
            </method>
            <method name="ActivateResult">
              <arg type="s" name="identifier" direction="in"/>
              <arg type="as" name="terms" direction="in"/>
              <arg type="u" name="timestamp" direction="in"/>
            </method>
            <method name="LaunchSearch">
              <arg type="as" name="terms" direction="in"/>
              <arg type="u" name="timestamp" direction="in"/>
            </method>
          </interface>
        </node>
        """
}
