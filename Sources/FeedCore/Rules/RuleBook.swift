import Foundation

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
        /// Each condition's key in the book's `LiteralScreen`, or nil for one PCRE2 always matches.
        var keys: [Int?]
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
    /// The plain conditions' words and phrases, all found in one pass over a text; nil when no
    /// condition has one.
    private let screen: LiteralScreen?
    /// The fields whose texts `screen` goes over.
    private let screenedFields: [RuleCondition.Field]

    /// Compiles the enabled ones of `rules`, in their order.
    init(_ rules: [Rule]) throws(RuleError) {
        var compiled: [CompiledRule] = []
        var keys: [String: Int] = [:]
        for rule in rules where rule.isEnabled {
            var patterns: [RulePattern] = [], ruleKeys: [Int?] = []
            for condition in rule.conditions {
                patterns.append(try RulePattern(condition.comparison, condition.pattern, caseSensitive: condition.isCaseSensitive))
                // A whole word or a whole text holds only where its text is contained, too.
                if condition.comparison != .matches, LiteralScreen.canScreen(condition.pattern) {
                    let key = condition.pattern.lowercased()
                    if keys[key] == nil { keys[key] = keys.count }
                    ruleKeys.append(keys[key])
                } else {
                    ruleKeys.append(nil)
                }
            }
            compiled.append(CompiledRule(rule: rule, patterns: patterns, keys: ruleKeys,
                                         label: rule.label.flatMap { try? LabelName.cleaned($0) }))
        }
        self.init(compiled: compiled)
    }

    private init(compiled: [CompiledRule]) {
        rules = compiled
        var keys: [Int: String] = [:]
        var fields = Set<RuleCondition.Field>()
        for rule in compiled {
            for (condition, key) in zip(rule.rule.conditions, rule.keys) {
                guard let key else { continue }
                keys[key] = condition.pattern.lowercased()
                fields.insert(condition.field)
            }
        }
        // Keys keep their numbers when a restricted book drops some; the missing ones stay empty.
        let count = (keys.keys.max() ?? -1) + 1
        screen = keys.isEmpty ? nil : LiteralScreen(keys: (0..<count).map { keys[$0] })
        screenedFields = RuleCondition.Field.allCases.filter(fields.contains)
    }

    var isEmpty: Bool { rules.isEmpty }

    /// The rules whose ids are in `ids` (all of them when nil), compiled already.
    func restricted(to ids: Set<Int64>?) -> RuleBook {
        guard let ids else { return self }
        return RuleBook(compiled: rules.filter { $0.rule.id.map(ids.contains) ?? false })
    }

    /// The fields some rule reads, so a caller reads no more of an entry than that.
    var fields: Set<RuleCondition.Field> {
        Set(rules.flatMap { $0.rule.conditions.map(\.field) })
    }

    /// The actions and labels of every rule `subject` meets.
    func verdict(for subject: RuleSubject) -> Verdict {
        verdict(for: subject, scratch: Scratch(self))
    }

    private func verdict(for subject: RuleSubject, scratch: Scratch) -> Verdict {
        var verdict = Verdict()
        screen(subject, into: scratch)
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

    /// The verdicts for `subjects`, in their order: on every core when there are enough of them to
    /// be worth it, each core taking a contiguous run with its own match data.
    func verdicts(for subjects: [RuleSubject]) -> [Verdict] {
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, subjects.count / Self.subjectsPerWorker)
        guard workers > 1 else { return subjects.map { verdict(for: $0) } }
        return [Verdict](unsafeUninitializedCapacity: subjects.count) { buffer, initialized in
            nonisolated(unsafe) let results = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let range = (subjects.count * worker / workers)..<(subjects.count * (worker + 1) / workers)
                let scratch = Scratch(self)
                for index in range {
                    (results.baseAddress! + index).initialize(to: verdict(for: subjects[index], scratch: scratch))
                }
            }
            initialized = subjects.count
        }
    }

    /// The fewest entries a core is given: below that, waking another thread costs more than it saves.
    static let subjectsPerWorker = 64

    /// What one caller matching entries reuses from one to the next: PCRE2's match data, and
    /// the keys `screen` found in each screened text of the entry at hand.
    final class Scratch {
        let match = RulePattern.Scratch()
        /// Two texts a field (`RuleSubject.texts(of:)`), in `RuleCondition.Field.allCases` order.
        var found: [LiteralScreen.Found]

        init(_ book: RuleBook) {
            found = Array(repeating: LiteralScreen.Found(keyCount: book.screen?.keyCount ?? 0),
                          count: RuleCondition.Field.allCases.count * 2)
        }
    }

    /// Finds the screened keys in `subject`'s texts, once for all the rules.
    func screen(_ subject: RuleSubject, into scratch: Scratch) {
        guard let screen else { return }
        for field in screenedFields {
            let (text, otherText) = subject.texts(of: field)
            screen.scan(text, into: &scratch.found[field.slot])
            if let otherText { screen.scan(otherText, into: &scratch.found[field.slot + 1]) }
        }
    }

    /// Whether `subject` meets one rule: all or any of its conditions, each negated as written.
    /// A condition that gave up decides nothing, so the rule gives up unless the others decide it.
    /// `scratch` holds what `screen(_:into:)` found in `subject`.
    static func outcome(of compiled: CompiledRule, for subject: RuleSubject, scratch: Scratch) -> RulePattern.Outcome {
        var gaveUp = false
        for ((condition, pattern), key) in zip(zip(compiled.rule.conditions, compiled.patterns), compiled.keys) {
            let (text, otherText) = subject.texts(of: condition.field)
            // A key the screen did not find cannot match; one it found is left to PCRE2 to judge.
            func match(_ text: String, _ slot: Int) -> RulePattern.Outcome {
                if let key, !scratch.found[slot].contains(key) { return .noMatch }
                return pattern.match(text, in: scratch.match)
            }
            var outcome = match(text, condition.field.slot)
            if outcome != .match, let otherText {
                let other = match(otherText, condition.field.slot + 1)
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

extension RuleCondition.Field {
    /// The first of the field's two places in `RuleBook.Scratch.found`.
    fileprivate var slot: Int {
        switch self {
        case .title: 0
        case .content: 2
        case .author: 4
        case .link: 6
        case .feed: 8
        case .folder: 10
        case .account: 12
        }
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
