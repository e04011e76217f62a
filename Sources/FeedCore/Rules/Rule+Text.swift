// A rule's text form, which `feed-reader --add-rule` reads and `--list-rules` writes
// (docs/rules.md): one setting or condition a line, in English keywords, as a configuration
// file is, so that a script can write one.
//
//     name: Sponsored posts
//     match: any
//     title contains "sponsored"
//     not author is "Editor"
//     link matches "/ads?/" case-sensitive
//     action: hide, mark-read
//     label: Ads

extension Rule {
    /// Reads a rule from its text form; blank lines and lines starting with `#` are skipped.
    public init(text: String) throws(RuleError) {
        var name: String?
        var isEnabled = true
        var requirement = Requirement.all
        var conditions: [RuleCondition] = []
        var actions: [RuleAction] = []
        var label: String?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = Substring(rawLine.trimmingWhitespace)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let number = index + 1
            if let (key, value) = Self.setting(in: line) {
                switch key {
                case "name":
                    guard !value.isEmpty else { throw .malformed(line: number, text: String(line)) }
                    name = value
                case "match":
                    guard let value = Requirement(rawValue: value.lowercased()) else { throw .malformed(line: number, text: String(line)) }
                    requirement = value
                case "enabled":
                    switch value.lowercased() {
                    case "yes", "true", "on": isEnabled = true
                    case "no", "false", "off": isEnabled = false
                    default: throw .malformed(line: number, text: String(line))
                    }
                case "action", "actions":
                    for word in value.split(separator: ",") {
                        guard let action = RuleAction(rawValue: word.trimmingWhitespace.lowercased()) else {
                            throw .malformed(line: number, text: String(line))
                        }
                        if !actions.contains(action) { actions.append(action) }
                    }
                case "label":
                    guard label == nil, let name = try? LabelName.cleaned(value) else { throw .malformed(line: number, text: String(line)) }
                    label = name
                default:
                    throw .malformed(line: number, text: String(line))
                }
            } else if let condition = RuleCondition(line: line) {
                conditions.append(condition)
            } else {
                throw .malformed(line: number, text: String(line))
            }
        }
        guard !conditions.isEmpty, !actions.isEmpty || label != nil else { throw .incomplete }
        self.init(name: name ?? conditions[0].text, isEnabled: isEnabled, requirement: requirement,
                  conditions: conditions, actions: actions, label: label)
    }

    /// The rule in its text form, which `init(text:)` reads back as the same rule.
    public var text: String {
        var lines = ["name: " + name.replacing("\n", with: " ")]
        if requirement != .all { lines.append("match: " + requirement.rawValue) }
        if !isEnabled { lines.append("enabled: no") }
        lines += conditions.map(\.text)
        if !actions.isEmpty { lines.append("action: " + actions.map(\.rawValue).joined(separator: ", ")) }
        if let label { lines.append("label: " + label) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `key: value` with a known key's spelling, or nil for a condition line.
    private static func setting(in line: Substring) -> (String, String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[..<colon].trimmingWhitespace.lowercased()
        guard key.allSatisfy({ $0.isLetter }), !key.isEmpty else { return nil }
        return (key, line[line.index(after: colon)...].trimmingWhitespace)
    }
}

extension RuleCondition {
    /// Reads `[not] FIELD COMPARISON "PATTERN" [case-sensitive]`; nil when the line is not one.
    init?(line: Substring) {
        var rest = line
        func word() -> String? {
            rest = rest.drop(while: \.isWhitespace)
            guard let end = rest.firstIndex(where: \.isWhitespace) ?? (rest.isEmpty ? nil : rest.endIndex) else { return nil }
            defer { rest = rest[end...] }
            return rest[..<end].lowercased()
        }
        var first = word()
        let isNegated = first == "not"
        if isNegated { first = word() }
        guard let fieldName = first, let field = Field(rawValue: fieldName),
              let comparisonName = word(), let comparison = Comparison(rawValue: comparisonName) else { return nil }
        rest = rest.drop(while: \.isWhitespace)
        guard let pattern = Self.quoted(&rest) else { return nil }
        let flag = rest.trimmingWhitespace.lowercased()
        guard flag.isEmpty || flag == "case-sensitive" else { return nil }
        self.init(field, comparison, pattern, isNegated: isNegated, isCaseSensitive: !flag.isEmpty)
    }

    /// The condition as a line of the text form.
    public var text: String {
        (isNegated ? "not " : "") + "\(field.rawValue) \(comparison.rawValue) " + Self.quoting(pattern)
            + (isCaseSensitive ? " case-sensitive" : "")
    }

    /// A double-quoted string at the start of `text`, which it leaves after the closing quote.
    /// `\"` is a quote and `\\` a backslash; any other backslash stays, so a regular expression
    /// is written as it is (`\d`, `\b`).
    private static func quoted(_ text: inout Substring) -> String? {
        guard text.first == "\"" else { return nil }
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" {
                text = text[text.index(after: index)...]
                return value
            }
            let next = text.index(after: index)
            if character == "\\", next < text.endIndex, text[next] == "\"" || text[next] == "\\" {
                value.append(text[next])
                index = text.index(after: next)
            } else {
                value.append(character)
                index = next
            }
        }
        return nil
    }

    /// `pattern` double-quoted, escaping only what `quoted(_:)` would read otherwise.
    private static func quoting(_ pattern: String) -> String {
        var result = "\""
        let characters = Array(pattern)
        for (index, character) in characters.enumerated() {
            switch character {
            case "\"": result += "\\\""
            case "\\" where index + 1 == characters.count || characters[index + 1] == "\\" || characters[index + 1] == "\"":
                result += "\\\\"
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
