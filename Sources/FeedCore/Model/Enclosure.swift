import Foundation

/// A media file attached to an entry.
public struct Enclosure: Sendable, Hashable, Codable {
    /// What a file is for a reader: something to play, to look at, or only to download.
    public enum Kind: String, Sendable, Hashable, Codable {
        case audio, video, image, other
    }

    /// Where the file can be downloaded.
    public var url: URL
    /// The MIME type, such as `audio/mpeg`.
    public var type: String?
    /// The size in bytes, when the feed states it.
    public var length: Int64?
    /// What Media RSS's `medium` attribute says the file is, for a `media:content` without a type.
    public var medium: Kind?
    /// Whether the file is a preview picture (`media:thumbnail`) rather than the entry's media.
    public var isThumbnail: Bool

    /// Creates an enclosure.
    public init(url: URL, type: String? = nil, length: Int64? = nil, medium: Kind? = nil, isThumbnail: Bool = false) {
        self.url = url
        self.type = type
        self.length = length
        self.medium = medium
        self.isThumbnail = isThumbnail
    }

    /// What the file is: its MIME type's family, else the feed's `medium`, else its name's extension.
    public var kind: Kind {
        if isThumbnail { return .image }
        if let family = type?.split(separator: "/").first?.trimmingCharacters(in: .whitespaces).lowercased() {
            switch family {
            case "audio": return .audio
            case "video": return .video
            case "image": return .image
            default: break
            }
        }
        if let medium { return medium }
        return Self.extensionKinds[url.pathExtension.lowercased()] ?? .other
    }

    /// Whether the file is on the web: a feed's `file:` or `data:` enclosure is never followed.
    public static func isWebAddress(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased())
    }

    /// What a player would play of `enclosures`: video when there is any, else audio, else nil
    /// (thumbnails and files not on the web count for nothing).
    public static func playableMedia(among enclosures: [Enclosure]) -> Kind? {
        let kinds = Set(enclosures.filter { !$0.isThumbnail && isWebAddress($0.url) }.map(\.kind))
        return kinds.contains(.video) ? .video : kinds.contains(.audio) ? .audio : nil
    }

    /// Common media file extensions, for feeds that state no type (many podcast hosts).
    private static let extensionKinds: [String: Kind] = [
        "mp3": .audio, "m4a": .audio, "aac": .audio, "ogg": .audio, "oga": .audio, "opus": .audio, "flac": .audio, "wav": .audio,
        "mp4": .video, "m4v": .video, "webm": .video, "mkv": .video, "mov": .video, "ogv": .video,
        "jpg": .image, "jpeg": .image, "png": .image, "gif": .image, "webp": .image, "avif": .image,
    ]

    private enum CodingKeys: String, CodingKey {
        case url, type, length, medium, isThumbnail
    }

    /// Reads enclosures stored before `medium` and `isThumbnail` existed too.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(URL.self, forKey: .url)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        length = try container.decodeIfPresent(Int64.self, forKey: .length)
        medium = try container.decodeIfPresent(Kind.self, forKey: .medium)
        isThumbnail = try container.decodeIfPresent(Bool.self, forKey: .isThumbnail) ?? false
    }

    /// Writes only what is set, so an entry's stored enclosures stay as they were for plain ones.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encodeIfPresent(length, forKey: .length)
        try container.encodeIfPresent(medium, forKey: .medium)
        if isThumbnail { try container.encode(true, forKey: .isThumbnail) }
    }
}
