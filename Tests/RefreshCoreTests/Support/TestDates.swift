import Foundation

/// An instant written in ISO 8601 with its offset, e.g. "2024-03-05T10:00:00Z" or "...+09:00".
func instant(_ iso8601: String) -> Date {
    let parser = ISO8601DateFormatter()
    parser.formatOptions = [.withInternetDateTime]
    guard let date = parser.date(from: iso8601) else { fatalError("bad test date \(iso8601)") }
    return date
}

/// A time zone by identifier; a test with a misspelt one fails loudly.
func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else { fatalError("unknown time zone \(identifier)") }
    return zone
}
