/// Many row ids, sorted and each once, with where each sits among them: looked up a million
/// times in a pass over a table, by a table of positions when the ids are close together (an
/// undone Mark All as Read's: the store's ids run in order), by halving otherwise.
struct IDPositions {
    /// The ids, in order, each once.
    let sorted: [Int64]
    /// The position of each id from the first on, -1 for one not among them; nil when the ids
    /// are too far apart for such a table to stay small.
    private let table: [Int32]?

    init(_ ids: [Int64]) {
        var sorted = ids.sorted()
        sorted.removeDuplicates()
        self.sorted = sorted
        guard let first = sorted.first, let last = sorted.last, last - first < 4 * Int64(sorted.count) + 64 else {
            table = nil
            return
        }
        var table = [Int32](repeating: -1, count: Int(last - first) + 1)
        for (position, id) in sorted.enumerated() { table[Int(id - first)] = Int32(position) }
        self.table = table
    }

    /// Where `id` sits among the ids, or nil when it is not one of them.
    func position(of id: Int64) -> Int? {
        guard let first = sorted.first, let last = sorted.last, id >= first, id <= last else { return nil }
        if let table {
            let position = table[Int(id - first)]
            return position >= 0 ? Int(position) : nil
        }
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < id { low = middle + 1 } else { high = middle }
        }
        return sorted[low] == id ? low : nil
    }
}

private extension Array where Element == Int64 {
    /// Keeps the first of each run of equal ids (the array being sorted).
    mutating func removeDuplicates() {
        guard count > 1 else { return }
        var kept = 1
        for index in 1..<count where self[index] != self[kept - 1] {
            self[kept] = self[index]
            kept += 1
        }
        removeSubrange(kept...)
    }
}
