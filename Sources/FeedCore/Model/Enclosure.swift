import Foundation

/// A media file attached to an entry.
public struct Enclosure: Sendable, Hashable, Codable {
    /// Where the file can be downloaded.
    public var url: URL
    /// The MIME type, such as `audio/mpeg`.
    public var type: String?
    /// The size in bytes, when the feed states it.
    public var length: Int64?

    /// Creates an enclosure.
    public init(url: URL, type: String? = nil, length: Int64? = nil) {
        self.url = url
        self.type = type
        self.length = length
    }
}
