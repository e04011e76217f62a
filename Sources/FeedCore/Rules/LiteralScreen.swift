/// One pass over a text that finds which of many plain words and phrases it may contain, so that
/// the rules' plain conditions (contains, whole word, is), and the regular expressions whose
/// required texts are known (`RequiredText`), skip PCRE2 on texts that cannot match them: an
/// Aho–Corasick automaton over bytes, with ASCII letters folded to lower case.
///
/// It is a screen, never the judge: a key it finds is still matched by the condition's own
/// pattern, which decides case, word edges and Unicode folding. It only says no where PCRE2's
/// caseless match would say no too, so it takes keys of ASCII alone (bytes of other scripts fold in
/// ways a byte table cannot follow), and reports a text with one of the two non-ASCII characters
/// whose case folds onto ASCII letters (ſ for s, the Kelvin sign for k) as unscreened.
struct LiteralScreen: Sendable {
    /// The keys' count: a screened text sets one bit of `Found` per key.
    let keyCount: Int
    /// Each byte's column in `moves`: 0 for bytes no key has, ASCII upper case with lower.
    private let columns: [UInt8]
    private let columnCount: Int
    /// The automaton, a row of `columnCount` moves per state, rows `rowStride` apart. A move is
    /// where the next state's row starts, so that a scan adds a column to it without multiplying;
    /// the row of a state where some key ends starts one place later, so its start is odd. A scan
    /// makes one look-up a byte and gathers the starts' low bits, and looks at the keys only for a
    /// run of bytes where one was set.
    private let moves: [Int32]
    private let rowStride: Int
    /// The keys that end at each state, its suffixes' included (`hazardKey` for a folding
    /// hazard): those of state `s` are `endingKeys[endingStarts[s]..<endingStarts[s + 1]]`, one
    /// flat array, as a scan reads them on every key found.
    private let endingStarts: [Int32]
    private let endingKeys: [Int32]

    /// The byte sequences of ſ (U+017F) and the Kelvin sign (U+212A), which PCRE2 folds onto s and k.
    private static let hazards: [[UInt8]] = [[0xC5, 0xBF], [0xE2, 0x84, 0xAA]]
    private static let hazardKey: Int32 = -1

    /// Whether `key` can be screened: ASCII, not empty.
    static func canScreen(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { $0 < 0x80 }
    }

    /// An automaton over `keys`, each a list of texts any of which it stands for (a regular
    /// expression's alternatives, `RequiredText`), every text one that `canScreen`; an empty list
    /// is a number not used. A key's index is its bit in `Found`.
    init(keys: [[String]]) {
        keyCount = keys.count
        let texts = keys.enumerated().flatMap { index, texts in texts.map { (key: Int32(index), bytes: $0.utf8.map(Self.lowered)) } }
            + Self.hazards.map { (key: Self.hazardKey, bytes: $0) }
        var columns = [UInt8](repeating: 0, count: 256)
        var next = 1
        for byte in Set(texts.map(\.bytes).joined()).sorted() {
            columns[Int(byte)] = UInt8(next)
            next += 1
        }
        for upper in UInt8(ascii: "A")...UInt8(ascii: "Z") { columns[Int(upper)] = columns[Int(Self.lowered(upper))] }
        let width = next

        // The trie, then each state's failure link breadth first, filling every missing move
        // with its failure's, so that a scan makes one table look-up a byte.
        var table = [Int32](repeating: -1, count: width)
        var endings: [[Int32]] = [[]]
        for (key, bytes) in texts where !bytes.isEmpty {
            var state = 0
            for byte in bytes {
                let slot = state * width + Int(columns[Int(byte)])
                if table[slot] < 0 {
                    table[slot] = Int32(endings.count)
                    endings.append([])
                    table.append(contentsOf: repeatElement(-1, count: width))
                }
                state = Int(table[slot])
            }
            // Two texts of one key may end at one state (the same text twice).
            if !endings[state].contains(key) { endings[state].append(key) }
        }
        var failure = [Int](repeating: 0, count: endings.count)
        var queue: [Int] = []
        for column in 0..<width {
            let child = Int(table[column])
            if child > 0 { queue.append(child) } else { table[column] = 0 }
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            // A key already ending here (another of its texts) is not listed twice.
            let inherited = endings[failure[state]].filter { !endings[state].contains($0) }
            endings[state] += inherited
            for column in 0..<width {
                let slot = state * width + column
                let fallback = table[failure[state] * width + column]
                if table[slot] < 0 {
                    table[slot] = fallback
                } else {
                    failure[Int(table[slot])] = Int(fallback)
                    queue.append(Int(table[slot]))
                }
            }
        }
        self.columns = columns
        columnCount = width
        // Even, so that a state's row starts at an even place, or the odd one after it.
        let stride = (width + 2) & ~1
        rowStride = stride
        func start(_ state: Int) -> Int32 { Int32(state * stride + (endings[state].isEmpty ? 0 : 1)) }
        var moves = [Int32](repeating: 0, count: endings.count * stride + 1)
        for state in endings.indices {
            for column in 0..<width {
                moves[Int(start(state)) + column] = start(Int(table[state * width + column]))
            }
        }
        self.moves = moves
        endingStarts = endings.reduce(into: [0]) { starts, keys in starts.append(starts.last! + Int32(keys.count)) }
        endingKeys = endings.flatMap { $0 }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// How many 64-bit words hold one text's found keys, a bit a key.
    var wordCount: Int { (keyCount + 63) / 64 }

    /// Records in `found` (`wordCount` words) which keys `text`, UTF-8, contains, folded as the
    /// automaton folds: a bit each, or every bit for an unscreened text.
    func scan(_ text: UnsafeBufferPointer<UInt8>, into found: UnsafeMutablePointer<UInt64>) {
        found.update(repeating: 0, count: wordCount)
        guard let bytes = text.baseAddress else { return }
        columns.withUnsafeBufferPointer { columns in
            moves.withUnsafeBufferPointer { moves in
                // Runs of `run` bytes with no key's end cost a look-up and an OR a byte; a run
                // with one is gone over again, one byte at a time, from the state it began in.
                let run = 8
                var row = 0, offset = 0
                while offset &+ run <= text.count {
                    let first = row
                    var starts = 0
                    for index in offset..<(offset &+ run) {
                        row = Int(moves[row &+ Int(columns[Int(bytes[index])])])
                        starts |= row
                    }
                    if starts & 1 != 0 {
                        guard let last = record(UnsafeBufferPointer(start: bytes + offset, count: run), from: first, moves: moves,
                                                columns: columns, into: found) else { return }
                        row = last
                    }
                    offset &+= run
                }
                _ = record(UnsafeBufferPointer(start: bytes + offset, count: text.count &- offset), from: row, moves: moves,
                           columns: columns, into: found)
            }
        }
    }

    /// Goes over `bytes` from the state whose row starts at `row`, setting in `found` the bits
    /// of the keys that end on the way; returns the row it ends at, or nil after a folding hazard,
    /// when every bit is set.
    private func record(_ bytes: UnsafeBufferPointer<UInt8>, from row: Int, moves: UnsafeBufferPointer<Int32>,
                        columns: UnsafeBufferPointer<UInt8>, into found: UnsafeMutablePointer<UInt64>) -> Int? {
        var row = row
        endingStarts.withUnsafeBufferPointer { starts in
            endingKeys.withUnsafeBufferPointer { keys in
                for byte in bytes {
                    row = Int(moves[row &+ Int(columns[Int(byte)])])
                    guard row & 1 != 0 else { continue }
                    let state = row / rowStride
                    for key in keys[Int(starts[state])..<Int(starts[state + 1])] {
                        guard key != Self.hazardKey else {
                            found.update(repeating: ~0, count: wordCount)
                            row = -1
                            return
                        }
                        found[Int(key) >> 6] |= 1 << UInt64(key & 63)
                    }
                }
            }
        }
        return row < 0 ? nil : row
    }
}
