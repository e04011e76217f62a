/// Formats byte counts for error messages, in binary units since limits are set as powers of two.
enum ByteCount {
    /// Returns text such as "20 MB", "1.5 MB", "512 KB" or "100 bytes".
    static func text(_ count: Int) -> String {
        let units: [(size: Int, name: String)] = [(1 << 30, "GB"), (1 << 20, "MB"), (1 << 10, "KB")]
        for unit in units where count >= unit.size {
            let value = Double(count) / Double(unit.size)
            let rounded = (value * 10).rounded() / 10
            let number = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
            return "\(number) \(unit.name)"
        }
        return count == 1 ? "1 byte" : "\(count) bytes"
    }
}
