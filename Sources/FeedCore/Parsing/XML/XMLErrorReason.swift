/// Explains libxml2's error codes in words for people (its own messages are for developers).
enum XMLErrorReason {
    /// Whether the error leaves the document's meaning intact, so reading can go on.
    ///
    /// Undeclared entities never reach libxml2 (XMLRepair resolves them from the HTML set or keeps
    /// them as text);
    /// namespace mistakes such as an undeclared `media:` prefix and libxml2's warnings do not change the text.
    static func isTolerated(_ code: Int) -> Bool {
        switch code {
        case 26, 27: true
        case 93, 97, 98, 99, 100, 102, 106, 107: true
        case 200...299: true
        default: false
        }
    }

    /// `XML_ERR_DOCUMENT_EMPTY`: nothing but a prolog, or no markup at all.
    static let documentEmpty = 4
    /// `XML_ERR_DOCUMENT_END`: content after the root element.
    static let documentEnd = 5

    /// A short description of a libxml2 error code (`xmlParserErrors`).
    static func text(forCode code: Int) -> String {
        reasons[code] ?? "XML syntax error (libxml2 code \(code))"
    }

    private static let reasons: [Int: String] = [
        3: "document does not start with an element",
        4: "document is empty or does not start with '<'",
        6: "invalid hexadecimal character reference",
        7: "invalid decimal character reference",
        8: "invalid character reference",
        9: "invalid character (not allowed in XML)",
        14: "entity reference at end of document",
        22: "'&' is not followed by an entity name (escape it as &amp;)",
        23: "entity reference is missing its ';' (escape a literal '&' as &amp;)",
        34: "string not closed",
        37: "entity value not finished",
        38: "'<' is not allowed in an attribute value",
        39: "attribute value must be quoted",
        40: "attribute value is not closed",
        41: "attribute has no value",
        42: "attribute is given twice",
        45: "comment is not closed",
        47: "processing instruction is not closed",
        57: "XML declaration is not closed",
        61: "DOCTYPE is not closed",
        62: "']]>' is not allowed in text",
        63: "CDATA section is not closed",
        64: "reserved 'xml' name used for a processing instruction",
        65: "space required",
        68: "name expected",
        73: "'>' expected",
        74: "'</' expected",
        75: "'=' expected",
        76: "end tag does not match the open element",
        77: "document ends before its elements are closed",
        80: "'--' is not allowed inside a comment",
        81: "invalid encoding",
        85: "elements are not well balanced",
        86: "extra content at the end of the document",
        89: "entity reference loop",
        96: "XML declaration lacks a version",
        108: "unsupported XML version",
        110: "name is too long",
    ]
}
