import Foundation

/// A label as stored, with how many of its entries show and how many of those are unread.
public struct StoredLabel: Sendable, Hashable, Identifiable {
    public var id: Int64
    public var name: String
    /// Its entries, those a rule hid left out.
    public var entryCount: Int
    /// Its unread entries, those a rule hid left out.
    public var unreadCount: Int

    public init(id: Int64, name: String, entryCount: Int = 0, unreadCount: Int = 0) {
        self.id = id
        self.name = name
        self.entryCount = entryCount
        self.unreadCount = unreadCount
    }
}

/// Why a label cannot be made, renamed or found.
public enum LabelError: ReasonedError, Sendable, Equatable, CustomStringConvertible {
    /// A name with nothing visible in it.
    case emptyName
    /// A name longer than `LabelName.maximumLength` characters.
    case nameTooLong
    /// Another label has this name.
    case exists(name: String)
    /// No label has this name.
    case notFound(name: String)

    public var reason: ErrorReason {
        switch self {
        case .emptyName: ErrorReason(.labelEmptyName)
        case .nameTooLong: ErrorReason(.labelNameTooLong, [.limit: String(LabelName.maximumLength)])
        case let .exists(name): ErrorReason(.labelExists, [.name: name])
        case let .notFound(name): ErrorReason(.labelNotFound, [.name: name])
        }
    }

    public var description: String { reason.technicalSummary }
}

/// The rules a label's name follows, here and from a server.
public enum LabelName {
    /// The longest name, in characters: FreshRSS keeps 191, tt-rss 250; a longer one could not
    /// come back from a server as it was sent.
    public static let maximumLength = 190

    /// `raw` without control characters (a line break, a bidi override) and the spaces around it.
    ///
    /// - Throws: `LabelError` when nothing is left or the name is too long.
    public static func cleaned(_ raw: String) throws(LabelError) -> String {
        let name = visible(raw)
        guard !name.isEmpty else { throw .emptyName }
        guard name.count <= maximumLength else { throw .nameTooLong }
        return name
    }

    /// A server's name cleaned as ours are, or nil when nothing usable is left.
    static func fromServer(_ raw: String) -> String? {
        let name = visible(raw)
        return name.isEmpty || name.count > maximumLength ? nil : name
    }

    /// The text without control and bidi formatting characters, trimmed of the spaces around it.
    private static func visible(_ raw: String) -> String {
        let kept = raw.unicodeScalars.filter { scalar in
            // Joiners stay: emoji sequences and Persian words need them.
            if scalar == "\u{200C}" || scalar == "\u{200D}" { return true }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: return false
            default: return true
            }
        }
        return String(String.UnicodeScalarView(kept)).trimmingCharacters(in: .whitespaces)
    }
}
