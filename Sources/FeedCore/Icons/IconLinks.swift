import Foundation

/// The icons a web page names in its `<link rel="icon">` (also "shortcut icon") and
/// `<link rel="apple-touch-icon">` tags, best first: icons before touch icons, larger before smaller.
enum IconLinks {
    /// Only the page's start is read: the links belong in its head.
    static let scannedBytes = 256 * 1024
    /// How many of a page's icons are tried: a page naming thousands must not cost thousands of requests.
    static let maxCandidates = 8

    static func find(inPage page: Data, url: URL) -> [URL] {
        let text = String(decoding: page.prefix(scannedBytes), as: UTF8.self)
        var found: [(url: URL, rank: Int, size: Int)] = []
        var rest = text[...]
        while let start = rest.range(of: "<link", options: .caseInsensitive) {
            guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
            let attributes = Self.attributes(in: rest[start.upperBound..<end])
            rest = rest[end...]
            let rel = Set((attributes["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init))
            let rank = rel.contains("icon") ? 0 : rel.contains("apple-touch-icon") ? 1 : nil
            guard let rank, let href = attributes["href"], !href.isEmpty,
                  let resolved = URL(string: href, relativeTo: url)?.absoluteURL,
                  ["http", "https"].contains(resolved.scheme?.lowercased() ?? "") else { continue }
            found.append((resolved, rank, Self.largestSize(attributes["sizes"])))
        }
        return found.enumerated()
            .sorted { ($0.element.rank, -$0.element.size, $0.offset) < ($1.element.rank, -$1.element.size, $1.offset) }
            .prefix(maxCandidates)
            .map(\.element.url)
    }

    /// A tag's attributes by lowercased name: quoted with " or ', or bare.
    private static func attributes(in tag: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var index = tag.startIndex
        func skipSpaces() { while index < tag.endIndex, tag[index].isWhitespace || tag[index] == "/" { index = tag.index(after: index) } }
        while true {
            skipSpaces()
            guard index < tag.endIndex else { return result }
            let nameStart = index
            while index < tag.endIndex, !tag[index].isWhitespace, tag[index] != "=" { index = tag.index(after: index) }
            let name = tag[nameStart..<index].lowercased()
            skipSpaces()
            guard index < tag.endIndex, tag[index] == "=" else {
                result[name] = result[name] ?? ""
                continue
            }
            index = tag.index(after: index)
            while index < tag.endIndex, tag[index].isWhitespace { index = tag.index(after: index) }
            guard index < tag.endIndex else { return result }
            let value: Substring
            if tag[index] == "\"" || tag[index] == "'" {
                let quote = tag[index]
                let valueStart = tag.index(after: index)
                let valueEnd = tag[valueStart...].firstIndex(of: quote) ?? tag.endIndex
                value = tag[valueStart..<valueEnd]
                index = valueEnd < tag.endIndex ? tag.index(after: valueEnd) : valueEnd
            } else {
                let valueStart = index
                while index < tag.endIndex, !tag[index].isWhitespace { index = tag.index(after: index) }
                value = tag[valueStart..<index]
            }
            // Hrefs escape their ampersands; nothing else an icon address needs is written as an entity.
            result[name] = result[name] ?? String(value).replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    /// The largest width in a `sizes` attribute ("16x16 32x32", "any" counts as large); 0 when absent.
    private static func largestSize(_ sizes: String?) -> Int {
        guard let sizes else { return 0 }
        return sizes.lowercased().split(whereSeparator: \.isWhitespace).map { size in
            size == "any" ? 1024 : Int(size.split(separator: "x").first ?? "") ?? 0
        }.max() ?? 0
    }
}
