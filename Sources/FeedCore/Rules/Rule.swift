/// A rule: conditions on an entry, and what is done to the entries that meet them as they arrive
/// (or, on demand, to those stored). A rule never deletes: a hidden entry is still stored and found
/// by a search that shows hidden entries.
public struct Rule: Sendable, Hashable, Codable {
    /// Whether every condition must hold, or any one of them.
    public enum Requirement: String, Sendable, Hashable, Codable, CaseIterable {
        case all, any
    }

    /// The store's identifier; nil for a rule not stored yet.
    public var id: Int64?
    /// What the person called it, shown in lists.
    public var name: String
    public var isEnabled: Bool
    public var requirement: Requirement
    public var conditions: [RuleCondition]
    /// What is done to a matching entry, each once, in this order.
    public var actions: [RuleAction]
    /// The label put on a matching entry (made when missing), cleaned as `LabelName` cleans; nil for none.
    public var label: String?

    public init(id: Int64? = nil, name: String, isEnabled: Bool = true, requirement: Requirement = .all,
                conditions: [RuleCondition], actions: [RuleAction], label: String? = nil) {
        self.id = id
        self.name = name
        self.isEnabled = isEnabled
        self.requirement = requirement
        self.conditions = conditions
        self.actions = actions
        self.label = label
    }

    /// Whether the rule does anything to what it matches: an action, or a label to put on.
    public var doesSomething: Bool { !actions.isEmpty || label != nil }
}

/// One test of an entry: a part of it compared with a pattern.
public struct RuleCondition: Sendable, Hashable, Codable {
    /// The part of an entry a condition reads.
    public enum Field: String, Sendable, Hashable, Codable, CaseIterable {
        case title, content, author, link
        /// The feed's title or its address.
        case feed
        /// The name of the folder the feed is in.
        case folder
        /// The address of the sync server the feed comes from, or its user name.
        case account
    }

    /// How the field is compared with the pattern.
    public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
        /// The pattern appears anywhere in the field.
        case contains
        /// The pattern appears as a whole word (or words): not inside a longer word.
        case word
        /// The field matches the pattern as a regular expression (PCRE2 syntax).
        case matches
        /// The field is the pattern, whole.
        case `is`
    }

    public var field: Field
    public var comparison: Comparison
    public var pattern: String
    /// The condition holds when the comparison fails.
    public var isNegated: Bool
    /// Upper and lower case differ; by default they do not.
    public var isCaseSensitive: Bool

    public init(_ field: Field, _ comparison: Comparison, _ pattern: String, isNegated: Bool = false, isCaseSensitive: Bool = false) {
        self.field = field
        self.comparison = comparison
        self.pattern = pattern
        self.isNegated = isNegated
        self.isCaseSensitive = isCaseSensitive
    }
}

/// What a rule does to an entry that matches it.
public enum RuleAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Kept and searchable, but shown in no list and counted as unread nowhere.
    case hide
    case markRead = "mark-read"
    case star
    /// Announced in the new-entries notification even when its feed's announcements are off;
    /// a hidden entry never is.
    case notify
}
