import Foundation

/// A JSON value that one server sends as a number and another as a string (times, ids).
struct LenientNumber: Decodable, Hashable {
    var text: String

    init(text: String) {
        self.text = text
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
        } else if let integer = try? container.decode(Int64.self) {
            text = String(integer)
        } else {
            text = String(try container.decode(Double.self))
        }
    }

    var int64: Int64? { Int64(text) ?? Double(text).flatMap { $0.isFinite ? Int64(exactly: $0.rounded()) : nil } }
}
