/// The parts of an entry that rules read, with its feed's, folder's and account's names.
struct RuleSubject {
    var title: String?
    var content: String?
    var author: String?
    var link: String?
    var feedTitle: String?
    var feedURL: String?
    var folder: String?
    var accountServer: String?
    var accountUser: String?

    /// The text a field stands for, and a second one for the fields that have two (a feed's title
    /// and address, an account's server and user): a condition holds when either matches. A pair,
    /// not an array, as it is asked for once per condition and entry.
    func texts(of field: RuleCondition.Field) -> (String, String?) {
        switch field {
        case .title: (title ?? "", nil)
        case .content: (content ?? "", nil)
        case .author: (author ?? "", nil)
        case .link: (link ?? "", nil)
        case .feed: (feedTitle ?? "", feedURL ?? "")
        case .folder: (folder ?? "", nil)
        case .account: (accountServer ?? "", accountUser ?? "")
        }
    }
}

/// The enabled rules, compiled, which say what to do with an entry.
struct RuleBook: Sendable {
    /// A rule with its conditions compiled.
    struct CompiledRule: Sendable {
        var rule: Rule
        var patterns: [RulePattern]
        /// The rule's label, cleaned; nil for none or for a name no label can have.
        var label: String?
    }

    /// What the rules decided for one entry.
    struct Verdict: Equatable {
        var actions: Set<RuleAction> = []
        /// The labels to put on the entry.
        var labels: Set<String> = []
        /// The first matching rule that hides, which `FeedStore.removeRule(id:)` undoes.
        var hiddenBy: Int64?
        /// The rules that gave up on this entry because a pattern needed more work than allowed.
        var tooComplex: Set<Int64> = []
    }

    let rules: [CompiledRule]

    /// Compiles the enabled ones of `rules`, in their order.
    init(_ rules: [Rule]) throws(RuleError) {
        var compiled: [CompiledRule] = []
        for rule in rules where rule.isEnabled {
            var patterns: [RulePattern] = []
            for condition in rule.conditions {
                patterns.append(try RulePattern(condition.comparison, condition.pattern, caseSensitive: condition.isCaseSensitive))
            }
            compiled.append(CompiledRule(rule: rule, patterns: patterns, label: rule.label.flatMap { try? LabelName.cleaned($0) }))
        }
        self.rules = compiled
    }

    var isEmpty: Bool { rules.isEmpty }

    /// The fields some rule reads, so a caller reads no more of an entry than that.
    var fields: Set<RuleCondition.Field> {
        Set(rules.flatMap { $0.rule.conditions.map(\.field) })
    }

    /// The actions and labels of every rule `subject` meets.
    func verdict(for subject: RuleSubject) -> Verdict {
        var verdict = Verdict()
        let scratch = RulePattern.Scratch()
        for compiled in rules {
            switch Self.outcome(of: compiled, for: subject, scratch: scratch) {
            case .match:
                verdict.actions.formUnion(compiled.rule.actions)
                if let label = compiled.label { verdict.labels.insert(label) }
                if verdict.hiddenBy == nil, compiled.rule.actions.contains(.hide) { verdict.hiddenBy = compiled.rule.id }
            case .noMatch: break
            case .tooComplex: compiled.rule.id.map { _ = verdict.tooComplex.insert($0) }
            }
        }
        return verdict
    }

    /// Whether `subject` meets one rule: all or any of its conditions, each negated as written.
    /// A condition that gave up decides nothing, so the rule gives up unless the others decide it.
    static func outcome(of compiled: CompiledRule, for subject: RuleSubject, scratch: RulePattern.Scratch) -> RulePattern.Outcome {
        var gaveUp = false
        for (condition, pattern) in zip(compiled.rule.conditions, compiled.patterns) {
            let (text, otherText) = subject.texts(of: condition.field)
            var outcome = pattern.match(text, in: scratch)
            if outcome != .match, let otherText {
                let other = pattern.match(otherText, in: scratch)
                if other != .noMatch { outcome = other }
            }
            if outcome == .tooComplex {
                gaveUp = true
                continue
            }
            let holds = (outcome == .match) != condition.isNegated
            switch compiled.rule.requirement {
            case .all where !holds: return .noMatch
            case .any where holds: return .match
            default: break
            }
        }
        if gaveUp { return .tooComplex }
        return compiled.rule.requirement == .all ? .match : .noMatch
    }
}

extension Rule {
    /// Checks that every pattern compiles and that none needs more work than allowed on a long
    /// text of repeated letters and digits, where runaway regular expressions show themselves.
    public func validate() throws(RuleError) {
        guard !conditions.isEmpty, doesSomething else { throw .incomplete }
        if let label {
            do { _ = try LabelName.cleaned(label) } catch { throw .label(error) }
        }
        let probes = [String(repeating: "a", count: 2_000) + "!", String(repeating: "ab1 ", count: 500) + "\u{1}"]
        for condition in conditions {
            let pattern = try RulePattern(condition.comparison, condition.pattern, caseSensitive: condition.isCaseSensitive)
            if probes.contains(where: { pattern.match($0) == .tooComplex }) {
                throw .patternTooComplex(pattern: condition.pattern)
            }
        }
    }
}
