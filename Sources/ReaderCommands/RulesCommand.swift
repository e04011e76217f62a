import FeedCore
import Foundation

/// The rules from the command line, without a window: `--list-rules`, `--add-rule` (the rule's
/// text form on standard input, docs/rules.md), `--remove-rule ID` and `--import-newsboat-rules
/// FILE`. Results go to standard output, problems to standard error in the user's language.
enum RulesCommand {
    static var options: [CommandLineOption] {
        [
            CommandLineOption(name: "list-rules", summary: tr("List the rules in their text form and exit"),
                              command: .plain { await listRules() }),
            CommandLineOption(name: "add-rule", summary: tr("Add a rule written on standard input, print its ID and exit"),
                              command: .plain { await addRule() }),
            CommandLineOption(name: "remove-rule", summary: tr("Remove a rule and exit"),
                              // TRANSLATORS: the value of --remove-rule in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .file(placeholder: tr("ID")) { await removeRule($0) }),
            CommandLineOption(name: "import-newsboat-rules",
                              summary: tr("Turn the ignore-article lines of a newsboat configuration file into rules and exit"),
                              // TRANSLATORS: the value of --import and --export in `feed-reader --help`; translate it, in capitals where your script has them.
                              command: .localFile(placeholder: tr("FILE")) { await importNewsboat($0) }),
        ]
    }

    @MainActor
    private static func listRules() async -> Int32 {
        guard let store = await CommandStore.open(changing: false) else { return 1 }
        do {
            let rules = try await store.rules()
            for (index, stored) in rules.enumerated() {
                if index > 0 { CommandOutput.say("") }
                // The id as a comment, which --add-rule skips: a listed rule can be added again as it is.
                CommandOutput.say("# \(stored.rule.id ?? 0)")
                if let problem = stored.problem { CommandOutput.say("# " + problem.sentence) }
                CommandOutput.say(stored.rule.text, terminator: "")
            }
            return 0
        } catch {
            return CommandOutput.fail(ErrorReason.readFailure(error))
        }
    }

    @MainActor
    private static func addRule() async -> Int32 {
        let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        let rule: Rule
        do {
            rule = try Rule(text: text)
        } catch {
            return CommandOutput.fail(error.reason.sentence)
        }
        guard let store = await CommandStore.open(changing: true) else { return 1 }
        do {
            let added = try await store.addRule(rule)
            CommandOutput.say(String(added.id ?? 0))
            return 0
        } catch {
            return CommandOutput.fail(tr("The rule was not added.") + " " + ErrorReason(error).sentence)
        }
    }

    @MainActor
    private static func removeRule(_ text: String) async -> Int32 {
        guard let id = Int64(text) else { return CommandOutput.fail(RuleError.notFound(id: 0).reason.sentence) }
        guard let store = await CommandStore.open(changing: true) else { return 1 }
        do {
            try await store.removeRule(id: id)
            return 0
        } catch {
            return CommandOutput.fail(ErrorReason(error).sentence)
        }
    }

    @MainActor
    private static func importNewsboat(_ file: LocalFile) async -> Int32 {
        guard let data = try? Data(contentsOf: file.url) else {
            return CommandOutput.fail(ErrorReason(.unreadableFile, [.path: file.displayName]).sentence)
        }
        let lines = NewsboatRules.lines(in: String(decoding: data, as: UTF8.self))
        guard let store = await CommandStore.open(changing: true) else { return 1 }
        var added = 0
        var status: Int32 = 0
        for line in lines {
            do {
                for rule in try line.result.get() {
                    try await store.addRule(rule)
                    added += 1
                }
            } catch let problem as NewsboatRules.Problem {
                status = CommandOutput.fail(problem.sentence(line: line.number))
            } catch {
                // TRANSLATORS: %d is a line number of the newsboat configuration file.
                status = CommandOutput.fail(tr("Line %d could not be turned into a rule.").filling(count: line.number)
                                            + " " + ErrorReason(error).sentence)
            }
        }
        // TRANSLATORS: what --import-newsboat-rules prints; %d is how many rules were added.
        CommandOutput.say(trn("%d rule added", "%d rules added", added).filling(count: added))
        return status
    }
}

extension NewsboatRules.Problem {
    /// Why the `ignore-article` line `line` became no rule, in the current language.
    func sentence(line: Int) -> String {
        // TRANSLATORS: %d is a line number of the newsboat configuration file.
        let failure = tr("Line %d could not be turned into a rule.").filling(count: line)
        let reason = switch self {
        case .unreadable: tr("Its filter expression cannot be read.")
        // TRANSLATORS: %@ is an attribute of newsboat's filter language, such as "age" or "tags".
        case let .unsupportedAttribute(name): tr("Rules cannot test the attribute “%@”.").filling(name)
        // TRANSLATORS: %@ is an operator of newsboat's filter language, such as "<" or "between".
        case let .unsupportedOperator(name): tr("Rules cannot compare with the operator “%@”.").filling(name)
        case .tooComplex: tr("Its filter expression would need too many rules.")
        }
        return failure + " " + reason
    }
}
