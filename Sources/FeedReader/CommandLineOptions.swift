import AppSignals
import CGLib
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The options handed to GApplication, which parses the command line, answers `--help` and
/// reports an unknown option or a missing value in the user's language.
@MainActor
final class CommandLineOptions {
    private let options: [CommandLineOption]
    /// The entries' strings: GLib keeps pointers to them for the application's life.
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// Called when no option was given and the app is to start its window, before GTK starts.
    private let startingWindow: () -> Void

    /// Adds `options` to `application` and answers them from its handle-local-options;
    /// `startingWindow` runs when none was given.
    init(_ options: [CommandLineOption], application: UnsafeMutablePointer<GApplication>, startingWindow: @escaping () -> Void) {
        self.options = options
        self.startingWindow = startingWindow
        var entries = options.map { option in
            var entry = GOptionEntry()
            entry.long_name = UnsafePointer(keep(option.name))
            entry.description = UnsafePointer(keep(option.summary))
            switch option.command {
            case .plain, .plainQualified, .switchQualifier:
                entry.arg = G_OPTION_ARG_NONE
            case let .file(placeholder, _), let .localFile(placeholder, _), let .qualified(placeholder, _, _),
                 let .windowProgram(placeholder):
                entry.arg = G_OPTION_ARG_FILENAME
                entry.arg_description = UnsafePointer(keep(placeholder))
            case let .qualifier(placeholder):
                entry.arg = G_OPTION_ARG_STRING
                entry.arg_description = UnsafePointer(keep(placeholder))
            }
            return entry
        }
        // The arguments after the options, for the commands that read them (`--label ID NAME`).
        var remaining = GOptionEntry()
        remaining.long_name = UnsafePointer(keep(CommandLineOption.remainingArguments))
        remaining.arg = G_OPTION_ARG_FILENAME_ARRAY
        entries.append(remaining)
        entries.append(GOptionEntry())
        g_application_add_main_option_entries(application, &entries)
        Signal.connectObjectReturningInt(application, "handle-local-options") { [unowned self] dictionary in
            self.handle(dictionary.assumingMemoryBound(to: GVariantDict.self))
        }
    }

    isolated deinit {
        strings.forEach { free($0) }
    }

    private func keep(_ string: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(string)!
        strings.append(copy)
        return copy
    }

    /// The status of the first option given, once its command has run; -1 to start the app.
    private func handle(_ dictionary: UnsafeMutablePointer<GVariantDict>) -> Int32 {
        var remaining: [String] = []
        if let value = g_variant_dict_lookup_value(dictionary, CommandLineOption.remainingArguments, nil) {
            defer { g_variant_unref(value) }
            if let array = g_variant_get_bytestring_array(value, nil) {
                defer { g_free(array) }
                var index = 0
                while let argument = array[index] {
                    remaining.append(String(cString: argument))
                    index += 1
                }
            }
        }
        func qualifierValues(_ qualifiers: [String]) -> [String: String] {
            var values: [String: String] = [:]
            for name in qualifiers {
                if name == CommandLineOption.remainingArguments {
                    if !remaining.isEmpty { values[name] = remaining.joined(separator: " ") }
                    continue
                }
                guard let qualifier = g_variant_dict_lookup_value(dictionary, name, nil) else { continue }
                defer { g_variant_unref(qualifier) }
                // A switch's value is a boolean, a qualifier's a string, an option's with a file value a byte string.
                switch options.first(where: { $0.name == name })?.command {
                case .switchQualifier, .plain, .plainQualified: values[name] = ""
                case .qualifier: values[name] = String(cString: g_variant_get_string(qualifier, nil))
                default: values[name] = String(cString: g_variant_get_bytestring(qualifier))
                }
            }
            return values
        }
        for option in options {
            guard let value = g_variant_dict_lookup_value(dictionary, option.name, nil) else { continue }
            defer { g_variant_unref(value) }
            switch option.command {
            case let .plain(command):
                return Self.runToEnd(command)
            case let .file(_, command):
                let bytes = g_variant_get_bytestring(value)!
                // A name that is not UTF-8 goes as a file: URL keeping its bytes; String(cString:)
                // would replace them and name another file.
                let file = String(validatingCString: bytes) ?? LocalFile(fileSystemPath: bytes).url.absoluteString
                return Self.runToEnd { await command(file) }
            case let .localFile(_, command):
                // String(cString:) would replace bytes that are not UTF-8, naming another file.
                let file = LocalFile(fileSystemPath: g_variant_get_bytestring(value))
                return Self.runToEnd { await command(file) }
            case .qualifier, .switchQualifier, .windowProgram:
                continue
            case let .qualified(_, qualifiers, command):
                let text = String(cString: g_variant_get_bytestring(value))
                let values = qualifierValues(qualifiers)
                return Self.runToEnd { await command(text, values) }
            case let .plainQualified(qualifiers, command):
                let values = qualifierValues(qualifiers)
                return Self.runToEnd { await command(values) }
            }
        }
        // GApplication would say it cannot open files; taking the arguments, it no longer does.
        if let first = remaining.first {
            // TRANSLATORS: %@ is an argument given to feed-reader that is no option.
            return CommandOutput.fail(tr("Unknown argument “%@”: see --help.").filling(first))
        }
        startingWindow()
        return -1
    }

    /// Runs `command` to its end in a main loop of its own: GApplication's has not started yet.
    private static func runToEnd(_ command: @escaping @Sendable () async -> Int32) -> Int32 {
        let loop = g_main_loop_new(nil, 0)!
        defer { g_main_loop_unref(loop) }
        let outcome = Outcome()
        Task { @MainActor in
            outcome.status = await command()
            g_main_loop_quit(loop)
        }
        g_main_loop_run(loop)
        return outcome.status
    }

    /// A command's exit status, set on the main actor when it ends.
    private final class Outcome {
        var status: Int32 = 0
    }
}
