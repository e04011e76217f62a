import Foundation

// A parse warning is an `ErrorReason` like any error: stored as its code and details, worded in
// the user's language by the app. The English wording here is the command line's (`--parse`
// JSON, which scripts and the corpus scorer read) and the key back from warnings that versions
// before v21 stored as these very sentences.

extension ErrorReason {
    /// The warning in the English words `feed-reader --parse` prints, as versions before codes stored it.
    public var englishWarning: String {
        switch code {
        case .textBeforeDeclaration: "text before the XML declaration was ignored"
        case .bareAmpersand: "a bare '&' was read as text"
        case .htmlEntities: "HTML entities, which XML does not define, were read as HTML's"
        case .undefinedEntity: "an entity XML does not define was kept as text"
        case .doubleHyphenInComment: "a comment contains '--'"
        case .unclosedCDATA: "a CDATA section was not closed"
        case .doctypeIgnored: "the DOCTYPE was ignored"
        case .entityDeclarationsIgnored: "entity declarations in the DOCTYPE were ignored"
        case .unknownEncoding: "unknown character encoding \"\(self[.encoding] ?? "")\"; read as UTF-8"
        case .undeclaredEncoding: "no character encoding declared; read as \(self[.encoding] ?? "")"
        case .notUTF8: "bytes that are not UTF-8 were read as windows-1252"
        case .malformedXML:
            "the document is not well-formed XML: \(self[.technical] ?? "") (line \(self[.line] ?? "1"), column \(self[.column] ?? "1"))"
        default: self[.technical] ?? technicalSummary
        }
    }

    /// The warning an older version stored as an English sentence: its code when it is one the
    /// parsers wrote, otherwise `.repaired` with the sentence kept as the technical detail.
    public init(legacyWarning text: String) {
        if let code = Self.fixedWarnings.first(where: { ErrorReason($0).englishWarning == text }) {
            self.init(code)
        } else if let label = text.between("unknown character encoding \"", "\"; read as UTF-8") {
            self.init(.unknownEncoding, [.encoding: label])
        } else if let encoding = text.between("no character encoding declared; read as ", "") {
            self.init(.undeclaredEncoding, [.encoding: encoding])
        } else if let malformed = text.between("the document is not well-formed XML: ", ")"),
                  let open = malformed.range(of: " (line ", options: .backwards),
                  case let position = malformed[open.upperBound...].components(separatedBy: ", column "),
                  position.count == 2, let line = Int(position[0]), let column = Int(position[1]) {
            self.init(.malformedXML, [.line: String(line), .column: String(column), .technical: String(malformed[..<open.lowerBound])])
        } else {
            self.init(.repaired, [.technical: text])
        }
    }

    /// The warnings with no details, recognised by their whole sentence.
    private static let fixedWarnings: [ErrorCode] = [
        .textBeforeDeclaration, .bareAmpersand, .htmlEntities, .undefinedEntity, .doubleHyphenInComment,
        .unclosedCDATA, .doctypeIgnored, .entityDeclarationsIgnored, .notUTF8,
    ]

    /// A feed's warnings as stored in `feeds.lastWarnings`: one a line, the code then each
    /// `key=value` after a tab; nil for none.
    public static func storedWarnings(_ warnings: [ErrorReason]) -> String? {
        guard !warnings.isEmpty else { return nil }
        return warnings.map { warning in
            ([warning.code.rawValue] + (warning.storedDetails?.replacingOccurrences(of: "\t", with: " ")
                .split(separator: "\n").map(String.init) ?? [])).joined(separator: "\t")
        }.joined(separator: "\n")
    }

    /// The warnings read back from `feeds.lastWarnings`.
    public static func warnings(stored: String?) -> [ErrorReason] {
        (stored ?? "").split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return ErrorReason(storedCode: fields[0], storedDetails: fields.dropFirst().joined(separator: "\n"))
        }
    }
}

private extension String {
    /// The text between `prefix` and `suffix` when the string is exactly that; nil otherwise.
    func between(_ prefix: String, _ suffix: String) -> String? {
        guard hasPrefix(prefix), hasSuffix(suffix), count >= prefix.count + suffix.count else { return nil }
        return String(dropFirst(prefix.count).dropLast(suffix.count))
    }
}
