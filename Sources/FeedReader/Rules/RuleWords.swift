import FeedCore
import ReaderCommands

/// A rule in the current language: the names of its fields, comparisons and actions as the
/// editor offers them, and the one line the Rules page shows under a rule's name.
@MainActor
enum RuleWords {
    /// A comparison as the editor offers it: the comparison, and whether the condition holds when it fails.
    struct Choice: Equatable {
        var comparison: RuleCondition.Comparison
        var isNegated: Bool
    }

    /// The editor's comparisons, in the order of its list.
    static let choices: [Choice] = [
        Choice(comparison: .contains, isNegated: false), Choice(comparison: .contains, isNegated: true),
        Choice(comparison: .word, isNegated: false), Choice(comparison: .word, isNegated: true),
        Choice(comparison: .matches, isNegated: false), Choice(comparison: .matches, isNegated: true),
        Choice(comparison: .is, isNegated: false), Choice(comparison: .is, isNegated: true),
    ]

    /// The part of an entry a condition reads, as a list names it.
    static func name(of field: RuleCondition.Field) -> String {
        switch field {
        // TRANSLATORS: a rule's condition reads the entry's title: "Title contains …".
        case .title: tr("Title")
        // TRANSLATORS: a rule's condition reads the entry's text: "Content contains …".
        case .content: tr("Content")
        // TRANSLATORS: a rule's condition reads the entry's author: "Author is …".
        case .author: tr("Author")
        // TRANSLATORS: a rule's condition reads the entry's web address: "Link contains …".
        case .link: tr("Link")
        // TRANSLATORS: a rule's condition reads the feed's title or address: "Feed is …".
        case .feed: tr("Feed")
        // TRANSLATORS: a rule's condition reads the name of the feed's folder: "Folder is …".
        case .folder: tr("Folder")
        // TRANSLATORS: a rule's condition reads the sync account's server or user name: "Account is …".
        case .account: tr("Account")
        }
    }

    /// A comparison as the editor's list names it, after the field.
    static func name(of choice: Choice) -> String {
        switch (choice.comparison, choice.isNegated) {
        // TRANSLATORS: a rule's condition, after the part of the entry: "Title contains" a text.
        case (.contains, false): tr("contains")
        // TRANSLATORS: a rule's condition, after the part of the entry: "Title does not contain" a text.
        case (.contains, true): tr("does not contain")
        // TRANSLATORS: a rule's condition: "Title contains the words" (whole words, not inside longer ones).
        case (.word, false): tr("contains the words")
        // TRANSLATORS: a rule's condition: "Title does not contain the words" (whole words).
        case (.word, true): tr("does not contain the words")
        // TRANSLATORS: a rule's condition: "Title matches the regular expression" a pattern.
        case (.matches, false): tr("matches the regular expression")
        // TRANSLATORS: a rule's condition: "Title does not match the regular expression" a pattern.
        case (.matches, true): tr("does not match the regular expression")
        // TRANSLATORS: a rule's condition: "Author is" a whole text.
        case (.is, false): tr("is")
        // TRANSLATORS: a rule's condition: "Author is not" a whole text.
        case (.is, true): tr("is not")
        }
    }

    static func name(of action: RuleAction) -> String {
        switch action {
        case .hide: tr("Hide")
        case .markRead: tr("Mark as Read")
        case .star: tr("Star")
        case .notify: tr("Notify")
        }
    }

    /// One condition in words: "Title contains “sponsored”".
    static func sentence(for condition: RuleCondition) -> String {
        let choice = Choice(comparison: condition.comparison, isNegated: condition.isNegated)
        // TRANSLATORS: a rule's condition: %1$@ is the part of the entry with its comparison
        // ("Title contains"), %2$@ the text or regular expression looked for.
        return tr("%1$@ “%2$@”").filling(name(of: condition.field) + " " + name(of: choice), condition.pattern)
    }

    /// What the Rules page shows under a rule's name: its conditions, then its actions.
    static func summary(of rule: Rule) -> String {
        let conditions = rule.conditions.map(sentence(for:)).joined(separator: tr(", "))
        let tested = rule.conditions.count < 2 ? conditions
            // TRANSLATORS: %@ is a rule's conditions, every one of which must hold.
            : rule.requirement == .all ? tr("All of: %@").filling(phrase: conditions)
            // TRANSLATORS: %@ is a rule's conditions, any one of which is enough.
            : tr("Any of: %@").filling(phrase: conditions)
        // TRANSLATORS: a rule's action: putting the label (a tag) %@ on what it matches.
        let done = rule.actions.map(name(of:)) + (rule.label.map { [tr("Label “%@”").filling($0)] } ?? [])
        // TRANSLATORS: a rule's conditions, then what it does: "Title contains “ad” → Hide, Mark as Read".
        return tr("%1$@ → %2$@").filling(tested, done.joined(separator: tr(", ")))
    }
}
