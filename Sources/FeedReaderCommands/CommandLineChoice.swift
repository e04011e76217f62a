import CGLib
import FeedCore
import ReaderCommands


/// Finds the command `feed-reader-commands` runs itself the way the window program's GApplication does:
/// GLib's option parser reads the same options, and the first option of the list that was given wins.
enum CommandLineChoice {
    /// The command of the first option given when it runs without a window; nil when the window
    /// program is to have the command line: no option, `--extract`, `--help` and GApplication's
    /// own options (which this parser does not know), or a command line it cannot parse, which the
    /// window program reports in the user's language.
    static func command(in argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                        options: [CommandLineOption]) -> (@Sendable () async -> Int32)? {
        // Where GLib writes each option's value: a gboolean, or a string it allocates.
        let values = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: options.count)
        values.initialize(repeating: nil, count: options.count)
        var names: [UnsafeMutablePointer<CChar>] = []
        defer {
            for (index, option) in options.enumerated() {
                // A flag's slot holds a gboolean, not a string.
                switch option.command {
                case .plain, .plainQualified, .switchQualifier: continue
                default: g_free(values[index])
                }
            }
            values.deallocate()
            names.forEach { free($0) }
        }
        var entries = options.enumerated().map { index, option in
            var entry = GOptionEntry()
            let name = strdup(option.name)!
            names.append(name)
            entry.long_name = UnsafePointer(name)
            entry.arg = switch option.command {
            case .plain, .plainQualified, .switchQualifier: G_OPTION_ARG_NONE
            case .file, .localFile, .qualified, .windowProgram: G_OPTION_ARG_FILENAME
            case .qualifier: G_OPTION_ARG_STRING
            }
            entry.arg_data = UnsafeMutableRawPointer(values + index)
            return entry
        }
        entries.append(GOptionEntry())

        let context = g_option_context_new(nil)
        defer { g_option_context_free(context) }
        g_option_context_set_help_enabled(context, 0)
        g_option_context_add_main_entries(context, &entries, nil)
        // GLib takes arguments out of the array it parses: it gets a copy of the pointers.
        var count = argc
        let copy = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: Int(argc) + 1)
        copy.initialize(from: argv, count: Int(argc) + 1)
        var parsed: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = copy
        defer { copy.deallocate() }
        var error: UnsafeMutablePointer<GError>?
        guard g_option_context_parse(context, &count, &parsed, &error) != 0 else {
            g_clear_error(&error)
            return nil
        }

        func given(_ index: Int) -> Bool { values[index] != nil }
        func text(_ index: Int) -> UnsafeMutablePointer<CChar> { values[index]!.assumingMemoryBound(to: CChar.self) }
        // What GLib left of the arguments, after the program's name: those that are no option's.
        let remaining = (1..<Int(max(count, 1))).compactMap { parsed?[$0].map { String(cString: $0) } }
        func qualifierValues(_ qualifiers: [String]) -> [String: String] {
            var found: [String: String] = [:]
            for name in qualifiers {
                if name == CommandLineOption.remainingArguments {
                    if !remaining.isEmpty { found[name] = remaining.joined(separator: " ") }
                    continue
                }
                guard let qualifier = options.firstIndex(where: { $0.name == name }), given(qualifier) else { continue }
                switch options[qualifier].command {
                case .switchQualifier, .plain, .plainQualified: found[name] = ""
                default: found[name] = String(cString: text(qualifier))
                }
            }
            return found
        }
        for (index, option) in options.enumerated() where given(index) {
            switch option.command {
            case let .plain(command):
                return command
            case let .file(_, command):
                // A name that is not UTF-8 goes as a file: URL keeping its bytes; String(cString:)
                // would replace them and name another file.
                let file = String(validatingCString: text(index)) ?? LocalFile(fileSystemPath: text(index)).url.absoluteString
                return { await command(file) }
            case let .localFile(_, command):
                let file = LocalFile(fileSystemPath: text(index))
                return { await command(file) }
            case .qualifier, .switchQualifier:
                continue
            case let .qualified(_, qualifiers, command):
                let value = String(cString: text(index))
                let values = qualifierValues(qualifiers)
                return { await command(value, values) }
            case let .plainQualified(qualifiers, command):
                let values = qualifierValues(qualifiers)
                return { await command(values) }
            case .windowProgram:
                return nil
            }
        }
        return nil
    }
}
