import Foundation

/// Feed metadata being assembled.
struct FeedDraft {
    var id: String?
    var title: String?
    var link: URL?
    var description: String?
    var iconURL: URL?
    /// Atom's feed-level author, which entries without their own inherit.
    var author: String?
    /// RSS `ttl`: minutes the feed may be cached.
    var ttlMinutes: Int?
    /// `sy:updatePeriod`: hourly, daily, weekly, monthly or yearly.
    var updatePeriod: String?
    /// `sy:updateFrequency`: how many times in that period the feed changes.
    var updateFrequency: Int?

    func feed(documentURL: URL?) -> Feed {
        let id = id ?? link?.absoluteString ?? documentURL?.absoluteString
            ?? EntryDraft.stableID(title: title, date: nil, fallback: description)
        return Feed(id: id, title: title, link: link, description: description, iconURL: iconURL,
                    updateInterval: Self.updateInterval(ttlMinutes: ttlMinutes, period: updatePeriod, frequency: updateFrequency))
    }

    /// The interval a feed declares: the longer of its `ttl` and its syndication period over its
    /// frequency (a period alone means once in it); nil when it declares neither, or only
    /// values that make no sense (zero, negative, an unknown period).
    static func updateInterval(ttlMinutes: Int?, period: String?, frequency: Int?) -> TimeInterval? {
        let ttl = ttlMinutes.flatMap { $0 > 0 ? TimeInterval($0) * 60 : nil }
        let periodLength: TimeInterval? = switch period?.lowercased() {
        case "hourly": 3600
        case "daily": 86400
        case "weekly": 7 * 86400
        case "monthly": 30 * 86400
        case "yearly": 365 * 86400
        // The module's default when a frequency comes without a period.
        case nil: frequency == nil ? nil : 86400
        default: nil
        }
        let times = frequency ?? 1
        let syndication = periodLength.flatMap { times > 0 ? $0 / TimeInterval(times) : nil }
        return [ttl, syndication].compactMap { $0 }.max()
    }
}
