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
///
/// Matching runs once per rule and entry, a hundred rules on a hundred thousand entries, so the
/// loop reads plain values alone (`Test`, `Plan`): copying a `Rule`, with its strings and arrays,
/// for every rule and entry cost more than the matching itself (docs/performance.md, Rules).
struct RuleBook: Sendable {
    /// A rule with its conditions compiled.
    struct CompiledRule: Sendable {
        var rule: Rule
        /// The rule's actions, as a verdict gathers them.
        var actions: Set<RuleAction>
        /// The rule's label, cleaned; nil for none or for a name no label can have.
        var label: String?
    }

    /// One condition as the matching loop reads it.
    struct Test: @unchecked Sendable {
        /// Kept alive by the book's `patterns`.
        unowned(unsafe) let pattern: RulePattern
        /// The field's first text in `Scratch`; a second follows for a field with two.
        let slot: Int
        let hasSecondText: Bool
        /// The condition's key in the book's `LiteralScreen`, or -1 for one PCRE2 always matches.
        let key: Int
        let isNegated: Bool
    }

    /// A rule's conditions in `tests`, and how they combine.
    struct Plan {
        let tests: Range<Int>
        let requiresAll: Bool
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

        /// Whether no rule matched nor gave up: nothing to do.
        var isEmpty: Bool { actions.isEmpty && labels.isEmpty && tooComplex.isEmpty }
    }

    let rules: [CompiledRule]
    /// Each of `rules`' conditions, in the same order.
    private let plans: [Plan]
    private let tests: [Test]
    /// Owns the patterns `tests` point to.
    private let patterns: [RulePattern]
    /// The plain conditions' words and phrases, all found in one pass over a text; nil when no
    /// condition has one.
    private let screen: LiteralScreen?
    /// The fields whose texts `screen` goes over.
    private let screenedFields: [RuleCondition.Field]
    /// The fields some rule reads, in `RuleCondition.Field.allCases` order.
    private let readFields: [RuleCondition.Field]
    /// The rules that can match only where the screen found a key, and those walked for every
    /// entry (`Triggers`).
    private let triggers: Triggers

    /// Compiles the enabled ones of `rules`, in their order.
    init(_ rules: [Rule]) throws(RuleError) {
        var compiled: [CompiledRule] = [], plans: [Plan] = [], tests: [Test] = [], patterns: [RulePattern] = []
        var keys: [[String]: Int] = [:]
        for rule in rules where rule.isEnabled {
            let first = tests.count
            for condition in rule.conditions {
                let pattern = try RulePattern(condition.comparison, condition.pattern, caseSensitive: condition.isCaseSensitive)
                patterns.append(pattern)
                var key = -1
                if let texts = Self.screenTexts(of: condition) {
                    if keys[texts] == nil { keys[texts] = keys.count }
                    key = keys[texts]!
                }
                tests.append(Test(pattern: pattern, slot: condition.field.slot, hasSecondText: condition.field.hasSecondText,
                                  key: key, isNegated: condition.isNegated))
            }
            plans.append(Plan(tests: first..<tests.count, requiresAll: rule.requirement == .all))
            compiled.append(CompiledRule(rule: rule, actions: Set(rule.actions), label: rule.label.flatMap { try? LabelName.cleaned($0) }))
        }
        self.init(compiled: compiled, plans: plans, tests: tests, patterns: patterns)
    }

    private init(compiled: [CompiledRule], plans: [Plan], tests: [Test], patterns: [RulePattern]) {
        rules = compiled
        self.plans = plans
        self.tests = tests
        self.patterns = patterns
        var keys: [Int: [String]] = [:]
        var screened = Set<RuleCondition.Field>(), read = Set<RuleCondition.Field>()
        for (rule, plan) in zip(compiled, plans) {
            for (condition, test) in zip(rule.rule.conditions, tests[plan.tests]) {
                read.insert(condition.field)
                guard test.key >= 0, let texts = Self.screenTexts(of: condition) else { continue }
                keys[test.key] = texts
                screened.insert(condition.field)
            }
        }
        // Keys keep their numbers when a restricted book drops some; the missing ones stay empty.
        let count = (keys.keys.max() ?? -1) + 1
        screen = keys.isEmpty ? nil : LiteralScreen(keys: (0..<count).map { keys[$0] ?? [] })
        screenedFields = RuleCondition.Field.allCases.filter(screened.contains)
        readFields = RuleCondition.Field.allCases.filter(read.contains)
        triggers = Triggers(plans: plans, tests: tests, keyCount: count)
    }

    /// Which rules an entry's found keys make worth asking: most rules hold only where one of
    /// their keys is in the text, so an entry walks the few whose keys the screen found instead of
    /// all of them, in the rules' order still.
    struct Triggers {
        /// How many 64-bit words hold one bit a rule.
        let ruleWordCount: Int
        /// The rules that may match whatever the screen found: one with a negated or unscreened
        /// condition that decides it, a bit each.
        let always: [UInt64]
        /// The rules key `k` found in text slot `s` makes worth asking are
        /// `rules[starts[s * keyCount + k]..<starts[s * keyCount + k + 1]]`.
        private let starts: [Int32]
        private let rules: [Int32]
        let keyCount: Int
        /// The text slots some trigger reads.
        let slots: [Int]

        /// The triggers of `plans`. A rule needing all its conditions cannot match where the key
        /// of one of them, not negated, is missing: that condition does not hold whatever the
        /// others do, so the rule is asked only where the screen found that key. A rule needing
        /// any one, each condition screened and none negated, is asked where any of its keys was
        /// found. Any other rule is asked for every entry.
        init(plans: [Plan], tests: [Test], keyCount: Int) {
            ruleWordCount = (plans.count + 63) / 64
            self.keyCount = keyCount
            var always = [UInt64](repeating: 0, count: ruleWordCount)
            var lists = [[Int32]](repeating: [], count: Scratch.slotCount * keyCount)
            for (index, plan) in plans.enumerated() {
                let planTests = tests[plan.tests]
                let triggering: [Test]
                if plan.requiresAll {
                    triggering = planTests.first { $0.key >= 0 && !$0.isNegated }.map { [$0] } ?? []
                    // Without such a condition (none at all included) the rule is asked every time.
                    guard !triggering.isEmpty else {
                        always[index >> 6] |= 1 << UInt64(index & 63)
                        continue
                    }
                } else {
                    guard planTests.allSatisfy({ $0.key >= 0 && !$0.isNegated }) else {
                        always[index >> 6] |= 1 << UInt64(index & 63)
                        continue
                    }
                    // None at all: a rule needing any of no conditions never matches.
                    triggering = Array(planTests)
                }
                for test in triggering {
                    for slot in test.hasSecondText ? [test.slot, test.slot + 1] : [test.slot] {
                        let list = slot * keyCount + test.key
                        if lists[list].last != Int32(index) { lists[list].append(Int32(index)) }
                    }
                }
            }
            self.always = always
            starts = lists.reduce(into: [0]) { starts, list in starts.append(starts.last! + Int32(list.count)) }
            rules = lists.flatMap { $0 }
            slots = (0..<Scratch.slotCount).filter { slot in (0..<keyCount).contains { !lists[slot * keyCount + $0].isEmpty } }
        }

        /// Sets in `candidates` (`ruleWordCount` words) the bits of the rules worth asking about
        /// the entry loaded into `scratch`.
        fileprivate func candidates(_ candidates: UnsafeMutablePointer<UInt64>, scratch: Scratch) {
            always.withUnsafeBufferPointer { candidates.update(from: $0.baseAddress!, count: ruleWordCount) }
            starts.withUnsafeBufferPointer { starts in
                rules.withUnsafeBufferPointer { rules in
                    for slot in slots {
                        for word in 0..<scratch.wordCount {
                            var bits = scratch.found[slot * scratch.wordCount + word]
                            while bits != 0 {
                                let key = word << 6 | bits.trailingZeroBitCount
                                // A text the screen could not judge has every bit set, past the last key too.
                                guard key < keyCount else { break }
                                bits &= bits &- 1
                                for rule in rules[Int(starts[slot * keyCount + key])..<Int(starts[slot * keyCount + key + 1])] {
                                    candidates[Int(rule) >> 6] |= 1 << UInt64(rule & 63)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The texts the screen looks for on `condition`'s behalf, one of which its text must contain
    /// to match; nil for a condition PCRE2 always matches. A whole word or a whole text holds only
    /// where its text is contained, a regular expression only where one of its required texts is.
    private static func screenTexts(of condition: RuleCondition) -> [String]? {
        guard condition.comparison != .matches else { return RequiredText.alternatives(in: condition.pattern) }
        return LiteralScreen.canScreen(condition.pattern) ? [condition.pattern.lowercased()] : nil
    }

    var isEmpty: Bool { rules.isEmpty }

    /// The rules whose ids are in `ids` (all of them when nil), compiled already.
    func restricted(to ids: Set<Int64>?) -> RuleBook {
        guard let ids else { return self }
        let kept = rules.indices.filter { rules[$0].rule.id.map(ids.contains) ?? false }
        return RuleBook(compiled: kept.map { rules[$0] }, plans: kept.map { plans[$0] }, tests: tests, patterns: patterns)
    }

    /// The fields some rule reads, so a caller reads no more of an entry than that.
    var fields: Set<RuleCondition.Field> { Set(readFields) }

    /// The actions and labels of every rule `subject` meets.
    func verdict(for subject: RuleSubject) -> Verdict {
        verdict(for: subject, scratch: Scratch(self))
    }

    private func verdict(for subject: RuleSubject, scratch: Scratch) -> Verdict {
        var verdict = Verdict()
        load(subject, into: scratch)
        triggers.candidates(scratch.candidates, scratch: scratch)
        plans.withUnsafeBufferPointer { plans in
            // The candidates in the rules' order, so the first hiding rule is the first listed.
            for word in 0..<triggers.ruleWordCount {
                var bits = scratch.candidates[word]
                while bits != 0 {
                    let index = word << 6 | bits.trailingZeroBitCount
                    bits &= bits &- 1
                    let outcome = self.outcome(of: plans[index], scratch: scratch)
                    guard outcome != .noMatch else { continue }
                    let compiled = rules[index]
                    if outcome == .tooComplex {
                        compiled.rule.id.map { _ = verdict.tooComplex.insert($0) }
                        continue
                    }
                    verdict.actions.formUnion(compiled.actions)
                    if let label = compiled.label { verdict.labels.insert(label) }
                    if verdict.hiddenBy == nil, compiled.actions.contains(.hide) { verdict.hiddenBy = compiled.rule.id }
                }
            }
        }
        return verdict
    }

    /// The verdicts for `subjects`, in their order: on every core when there are enough of them to
    /// be worth it, each core taking a contiguous run with its own match data.
    func verdicts(for subjects: [RuleSubject]) -> [Verdict] {
        let workers = min(Self.cores, subjects.count / Self.subjectsPerWorker)
        guard workers > 1 else {
            let scratch = Scratch(self)
            return subjects.map { verdict(for: $0, scratch: scratch) }
        }
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

    /// Asked once: Foundation reads the process's CPU affinity and cgroup limits each time,
    /// which cost a sync more than matching a page.
    private static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// The fewest entries a core is given: below that, waking another thread costs more than it saves.
    static let subjectsPerWorker = 64

    /// What one caller matching entries reuses from one to the next: PCRE2's match data, the
    /// entry at hand's texts as UTF-8 bytes, and the keys `screen` found in each.
    final class Scratch {
        let match = RulePattern.Scratch()
        /// Two texts a field (`RuleSubject.texts(of:)`), in `RuleCondition.Field.allCases` order,
        /// one after another in `bytes`: text `slot` is `bytes[starts[slot]..<starts[slot + 1]]`.
        fileprivate var bytes: UnsafeMutableBufferPointer<UInt8>
        fileprivate let starts: UnsafeMutableBufferPointer<Int>
        /// `wordCount` words of found keys a text.
        fileprivate let found: UnsafeMutablePointer<UInt64>
        fileprivate let wordCount: Int
        /// The rules worth asking about the entry at hand, a bit each (`Triggers`).
        fileprivate let candidates: UnsafeMutablePointer<UInt64>

        init(_ book: RuleBook) {
            bytes = .allocate(capacity: 4_096)
            starts = .allocate(capacity: Self.slotCount + 1)
            starts.initialize(repeating: 0)
            wordCount = book.screen?.wordCount ?? 0
            found = .allocate(capacity: max(1, wordCount * Self.slotCount))
            found.initialize(repeating: 0, count: max(1, wordCount * Self.slotCount))
            candidates = .allocate(capacity: max(1, book.triggers.ruleWordCount))
            candidates.initialize(repeating: 0, count: max(1, book.triggers.ruleWordCount))
        }

        deinit {
            bytes.deallocate()
            starts.deallocate()
            found.deallocate()
            candidates.deallocate()
        }

        static let slotCount = RuleCondition.Field.allCases.count * 2

        /// Text `slot` of the entry loaded last.
        fileprivate func text(_ slot: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[starts[slot]..<starts[slot + 1]])
        }

        /// Whether the screen found `key` in text `slot`.
        fileprivate func found(_ key: Int, in slot: Int) -> Bool {
            found[slot * wordCount + (key >> 6)] & (1 << UInt64(key & 63)) != 0
        }

        /// Puts `text` at `offset` in `bytes`, growing it as needed; returns the offset after it.
        fileprivate func copy(_ text: String?, at offset: Int) -> Int {
            guard var text, !text.isEmpty else { return offset }
            return text.withUTF8 { utf8 in
                if offset + utf8.count > bytes.count {
                    let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count * 2, offset + utf8.count))
                    grown.baseAddress!.initialize(from: bytes.baseAddress!, count: offset)
                    bytes.deallocate()
                    bytes = grown
                }
                UnsafeMutableRawPointer(bytes.baseAddress! + offset).copyMemory(from: utf8.baseAddress!, byteCount: utf8.count)
                return offset + utf8.count
            }
        }
    }

    /// Copies the texts of `subject` that rules read into `scratch`, and finds the screened keys
    /// in them, once for all the rules.
    func load(_ subject: RuleSubject, into scratch: Scratch) {
        var offset = 0
        var field = 0
        for read in readFields {
            // Fields no rule reads stay empty.
            while field < read.slot {
                scratch.starts[field + 1] = offset
                field += 1
            }
            let (text, otherText) = subject.texts(of: read)
            offset = scratch.copy(text, at: offset)
            scratch.starts[field + 1] = offset
            offset = scratch.copy(otherText, at: offset)
            scratch.starts[field + 2] = offset
            field += 2
        }
        while field < Scratch.slotCount {
            scratch.starts[field + 1] = offset
            field += 1
        }
        guard let screen else { return }
        for read in screenedFields {
            screen.scan(scratch.text(read.slot), into: scratch.found + read.slot * scratch.wordCount)
            if read.hasSecondText { screen.scan(scratch.text(read.slot + 1), into: scratch.found + (read.slot + 1) * scratch.wordCount) }
        }
    }

    /// Whether the entry last loaded into `scratch` meets the rule at `index`.
    func outcome(ofRuleAt index: Int, scratch: Scratch) -> RulePattern.Outcome {
        outcome(of: plans[index], scratch: scratch)
    }

    /// Whether the entry loaded into `scratch` meets one rule: all or any of its conditions, each
    /// negated as written. A condition that gave up decides nothing, so the rule gives up unless
    /// the others decide it.
    private func outcome(of plan: Plan, scratch: Scratch) -> RulePattern.Outcome {
        tests.withUnsafeBufferPointer { tests in
            var gaveUp = false
            for index in plan.tests {
                let test = tests[index]
                // A key the screen did not find cannot match; one it found is left to PCRE2 to judge.
                func match(_ slot: Int) -> RulePattern.Outcome {
                    if test.key >= 0, !scratch.found(test.key, in: slot) { return .noMatch }
                    return test.pattern.match(scratch.text(slot), in: scratch.match)
                }
                var outcome = match(test.slot)
                if outcome != .match, test.hasSecondText {
                    let other = match(test.slot + 1)
                    if other != .noMatch { outcome = other }
                }
                if outcome == .tooComplex {
                    gaveUp = true
                    continue
                }
                let holds = (outcome == .match) != test.isNegated
                if plan.requiresAll, !holds { return .noMatch }
                if !plan.requiresAll, holds { return .match }
            }
            if gaveUp { return .tooComplex }
            return plan.requiresAll ? .match : .noMatch
        }
    }
}

extension RuleCondition.Field {
    /// The first of the field's two places in `RuleBook.Scratch`.
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

    /// Whether the field has a second text (`RuleSubject.texts(of:)`).
    fileprivate var hasSecondText: Bool { self == .feed || self == .account }
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
