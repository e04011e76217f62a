import Testing
@testable import FeedCore

/// The screen goes over a text in runs of bytes and looks closer only at a run in which some key
/// ends, so every key must be found wherever it ends: at each place in a run, across two runs,
/// in the bytes after the last whole run, and over more keys than one word of bits holds.
@Suite("Finding many words and phrases in one pass")
struct LiteralScreenTests {
    /// Keys sharing prefixes and suffixes (the automaton's failure links), a key of two texts, a
    /// number not used, punctuation, one letter, and seventy more so the bits take two words.
    static let keys: [[String]] = [["he"], ["she"], ["hers"], ["sponsored 10"], ["/video/", "/audio/"], [], ["c++"], ["a"]]
        + (0..<70).map { ["q\($0)q"] }

    /// Which keys `text` contains, ASCII letters folded, a bit each; every bit for a text with ſ
    /// or the Kelvin sign, which the screen cannot judge.
    private static func reference(_ text: String) -> [UInt64] {
        let words = (keys.count + 63) / 64
        if text.contains("\u{017F}") || text.contains("\u{212A}") { return Array(repeating: ~0, count: words) }
        let lowered = String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        var found = [UInt64](repeating: 0, count: words)
        for (key, texts) in keys.enumerated() where texts.contains(where: lowered.contains) {
            found[key >> 6] |= 1 << UInt64(key & 63)
        }
        return found
    }

    private static func scanned(_ text: String, by screen: LiteralScreen) -> [UInt64] {
        var found = [UInt64](repeating: 0xAAAA, count: screen.wordCount)
        var text = text
        text.withUTF8 { utf8 in found.withUnsafeMutableBufferPointer { screen.scan(utf8, into: $0.baseAddress!) } }
        return found
    }

    /// Each key's texts, in another case, after 0 to 19 bytes and before 0 to 9, and the same
    /// with a folding hazard just before or after.
    static let texts: [String] = {
        var texts = ["", "x", "ushers", "SHE", "c+++", "Q69Q", "q6q q7", "xxxxxxxhe", "xxxxxxxxhe", "xxxxxxxsponsored 10xxxxx"]
        let insides = keys.flatMap { $0 }.map { $0.uppercased() } + ["\u{017F}", "\u{212A}"]
        for inside in insides {
            for before in 0..<20 {
                for after in [0, 1, 7, 8, 9] {
                    texts.append(String(repeating: "x", count: before) + inside + String(repeating: "x", count: after))
                }
            }
        }
        return texts
    }()

    @Test func everyKeyIsFoundWhereverItEnds() {
        let screen = LiteralScreen(keys: Self.keys)
        for text in Self.texts {
            #expect(Self.scanned(text, by: screen) == Self.reference(text), "\(text)")
        }
    }

    @Test func aTextOfEveryKeyAtOnceHasThemAll() {
        let screen = LiteralScreen(keys: Self.keys)
        let text = Self.keys.flatMap { $0 }.joined(separator: "-")

        #expect(Self.scanned(text, by: screen) == Self.reference(text))
        // Every key but the number not used.
        #expect(Self.scanned(text, by: screen).map(\.nonzeroBitCount).reduce(0, +) == Self.keys.count - 1)
    }
}
