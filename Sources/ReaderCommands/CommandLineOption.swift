import FeedCore
import Foundation

/// One option of `feed-reader`'s command line.
///
/// An option runs its command and the program exits with the command's status, before any
/// window opens or a display is needed. Adding an option is adding one to ``all(extracting:)``.
public struct CommandLineOption: Sendable {
    /// What the option does with its value.
    public enum Command: Sendable {
        /// An option without a value, such as `--version`.
        case plain(@Sendable () async -> Int32)
        /// An option whose value is a file name (or address), shown as `placeholder` by `--help`.
        case file(placeholder: String, @Sendable (String) async -> Int32)
        /// An option whose value is a local file, named by its bytes even when they are not UTF-8.
        case localFile(placeholder: String, @Sendable (LocalFile) async -> Int32)
        /// An option whose value goes with another one's, such as `--user` with `--add-account`;
        /// alone it does nothing.
        case qualifier(placeholder: String)
        /// An option without a value that goes with another one's, such as `--allow-insecure` with
        /// `--add-account`: given, its name's value is "".
        case switchQualifier
        /// An option with a value that also reads the values of the `qualifiers` given with it;
        /// the qualifier `CommandLineOption.remainingArguments` is what follows the options.
        case qualified(placeholder: String, qualifiers: [String], @Sendable (String, [String: String]) async -> Int32)
        /// An option without a value that reads the values of the `qualifiers` given with it.
        case plainQualified(qualifiers: [String], @Sendable ([String: String]) async -> Int32)
        /// An option with a file value that only the window program runs (it needs GTK): `feed-reader`
        /// hands the whole command line over to that program.
        case windowProgram(placeholder: String)
    }

    /// The long name: `--name`.
    public let name: String
    /// What `--help` says the option does.
    public let summary: String
    public let command: Command

    /// The qualifier that is the arguments after the options, joined by spaces: `--label 12 Read
    /// later` gives "Read later".
    public static let remainingArguments = ""

    /// The program's version, as `--version` prints it.
    public static let version = "0.1.0"

    /// Every option, in the order `--help` lists them; the first one given runs. `extract` runs
    /// `--extract` in the window program; without it, `--extract` is left to that program.
    public static func all(extracting extract: (@Sendable (String) async -> Int32)?) -> [CommandLineOption] {
        // TRANSLATORS: the value of --parse in `feed-reader --help`; translate it, in capitals where your script has them.
        let fileOrURL = tr("FILE-OR-URL")
        return [
            CommandLineOption(name: "version", summary: tr("Show the version and exit"), command: .plain {
                print("feed-reader \(version)")
                return 0
            }),
            CommandLineOption(name: "parse", summary: tr("Read one feed, print it as JSON and exit"),
                              command: .file(placeholder: fileOrURL) { await ParseCommand.run($0) }),
            CommandLineOption(name: "extract", summary: tr("Print the readable article of a web page as HTML and exit"),
                              command: extract.map { .file(placeholder: fileOrURL, $0) } ?? .windowProgram(placeholder: fileOrURL)),
            CommandLineOption(name: "import", summary: tr("Subscribe to the feeds of an OPML file and exit"),
                              // TRANSLATORS: the value of --import and --export in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .localFile(placeholder: tr("FILE")) {
                                  await SubscriptionsCommand.importing($0).run()
                              }),
            CommandLineOption(name: "export", summary: tr("Write the subscriptions to an OPML file and exit"),
                              command: .localFile(placeholder: tr("FILE")) {
                                  await SubscriptionsCommand.exporting($0).run()
                              }),
        ] + AccountsCommand.options + FeedsCommand.options + RulesCommand.options + LabelsCommand.options
    }
}
