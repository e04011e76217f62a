import Foundation
import Synchronization

/// Plain texts made from HTML, in the order the HTML is to be stored, found again by the HTML's
/// bytes (`FeedStore.madePlainTexts`): in that order each is found at the first comparison,
/// without hashing the HTML.
final class MadePlainTexts: Sendable {
    private let made: [(html: String, text: String)]
    /// Where the next search starts: past the last one found.
    private let next = Mutex(0)

    init(_ made: [(html: String, text: String)]) {
        self.made = made
    }

    /// The plain text made from `html`, if it was.
    func text(of html: String) -> String? {
        next.withLock { next in
            // From where the last one was found to the end, then from the start.
            guard let index = made[next...].firstIndex(where: { Self.sameBytes($0.html, html) })
                ?? made[..<next].firstIndex(where: { Self.sameBytes($0.html, html) }) else { return nil }
            next = index + 1
            return made[index].text
        }
    }

    /// Byte for byte: String's `==` is canonical equivalence, which would equate HTML whose
    /// plain texts differ in their bytes.
    private static func sameBytes(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        let compared = first.utf8.withContiguousStorageIfAvailable { one in
            second.utf8.withContiguousStorageIfAvailable { other in
                one.isEmpty || memcmp(one.baseAddress!, other.baseAddress!, one.count) == 0
            }
        }
        return (compared ?? nil) ?? first.utf8.elementsEqual(second.utf8)
    }
}
