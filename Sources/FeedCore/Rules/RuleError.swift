/// Why a rule cannot be read, stored or used.
public enum RuleError: ReasonedError, Sendable, Equatable, CustomStringConvertible {
    /// A line of a rule's text form that cannot be read, with what was expected.
    case malformed(line: Int, text: String)
    /// A rule without a condition or without an action.
    case incomplete
    /// A regular expression that does not compile, at a 1-based character of it.
    case invalidPattern(pattern: String, position: Int)
    /// A regular expression that takes more work than a rule may on one entry.
    case patternTooComplex(pattern: String)
    /// No stored rule has this identifier.
    case notFound(id: Int64)
    /// A label to put on that no label could be named.
    case label(LabelError)

    public var reason: ErrorReason {
        switch self {
        case let .malformed(line, text): ErrorReason(.ruleMalformed, [.line: String(line), .text: text])
        case .incomplete: ErrorReason(.ruleIncomplete)
        case let .invalidPattern(pattern, position): ErrorReason(.ruleInvalidPattern, [.text: pattern, .column: String(position)])
        case let .patternTooComplex(pattern): ErrorReason(.rulePatternTooComplex, [.text: pattern])
        case let .notFound(id): ErrorReason(.ruleNotFound, [.id: String(id)])
        case let .label(error): error.reason
        }
    }

    public var description: String { reason.technicalSummary }
}
