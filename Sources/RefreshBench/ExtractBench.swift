import FeedCore
import Foundation

/// The full article of a generated 200 KB blog page (the article among a long menu, a sidebar
/// and comments, as a real page has them):
/// - `extract_200k_ms` and `extract_200k_peak_rss_mb`: the release `feed-reader --extract` on
///   it, process start and WebKit's start included, and its peak resident memory as GNU time
///   counts it;
/// - `article_plain_ms`, `article_full_200k_ms` and their `_rss_mb`: in the reader's window
///   (``ReaderProbe`` in `article` mode), an entry whose link is the page, shown as the feed
///   gives it, then as its full article fetched from a local server; the memory of the reader
///   and WebKit's processes after each.
@MainActor
enum ExtractBench {
    struct Result {
        var milliseconds: Double
        var peakRSSMegabytes: Double
        var pageBytes: Int
    }

    struct DisplayResult {
        var plainMilliseconds: Double
        var plainRSSMegabytes: Double
        var fullMilliseconds: Double
        var fullRSSMegabytes: Double
    }

    /// Shows the entry plain, then full, `options.runs` times (after the warm-ups); medians.
    static func runInWindow(executable: URL, _ options: BenchOptions) throws -> DisplayResult {
        let server = try FeedServer(bodies: [Data(page().utf8)])
        defer { server.stop() }
        var plain: [Double] = [], plainRSS: [Double] = [], full: [Double] = [], fullRSS: [Double] = []
        for index in 0..<(options.warmUps + options.runs) {
            // A new store each time: the full article is kept with its entry, and shown from there the next time.
            let dataHome = try makeStore(linkingTo: server.url(ofFeed: 0))
            let lines = try ReaderBench.launch(executable, dataHome: dataHome, probe: .article, entries: 1)
            guard let plainNs = lines["plain-ns"].flatMap(Double.init), let fullNs = lines["full-ns"].flatMap(Double.init),
                  let plainKB = lines["plain-rss-kb"].flatMap(Double.init), let fullKB = lines["full-rss-kb"].flatMap(Double.init) else {
                throw BenchError("the reader probe reported no article loads: \(lines)")
            }
            if index >= options.warmUps {
                plain.append(plainNs / 1e6)
                full.append(fullNs / 1e6)
                plainRSS.append(plainKB / 1024)
                fullRSS.append(fullKB / 1024)
            }
        }
        return DisplayResult(plainMilliseconds: Stats.median(plain), plainRSSMegabytes: Stats.median(plainRSS),
                             fullMilliseconds: Stats.median(full), fullRSSMegabytes: Stats.median(fullRSS))
    }

    /// A store holding one entry whose link is `page`, its feed text one paragraph; returns its XDG_DATA_HOME.
    private static func makeStore(linkingTo page: URL) throws -> URL {
        let dataHome = BenchFiles.directory.appendingPathComponent("article-data", isDirectory: true)
        try? FileManager.default.removeItem(at: dataHome)
        let rss = Data("""
            <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Garden Notes</title>
            <link>\(page.absoluteString)</link><description>d</description>
            <item><title>A long season in the garden</title><link>\(page.absoluteString)</link><guid>season</guid>
            <description>The first lines of a long season in the garden.</description></item></channel></rss>
            """.utf8)
        let feedURL = page.deletingLastPathComponent().appendingPathComponent("garden.xml")
        let parsed = try FeedParser().parse(rss, url: feedURL)
        let store = try FeedStore(appDirectory: "feed-reader", environment: ["XDG_DATA_HOME": dataHome.path])
        let stored = blocking {
            let subscription = try await store.addFeed(url: feedURL)
            try await store.apply(FetchResult(request: subscription.request, outcome: .fetched(parsed, validators: CacheValidators())),
                                  toFeed: subscription.id)
            return try await store.entryCount()
        }
        guard case .success(1) = stored else { throw BenchError("the article store holds \(stored) entries, not 1") }
        return dataHome
    }

    /// The page: deterministic, about 200 KB, half of it the article.
    static func page() -> String {
        var random = FeedGenerator.Random()
        let words = ["garden", "frost", "cover", "straw", "cardboard", "worms", "spring", "beds", "compost", "soil",
                     "leaves", "water", "mulch", "seeds", "winter", "roots"]
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in words[random.next(words.count)] }.joined(separator: " ") + "."
        }
        let menu = (0..<300).map { "<li><a href=\"/topic/\($0)\">Topic \($0)</a></li>" }.joined()
        let sidebar = (0..<240).map { "<div class=\"widget\"><h3>Related \($0)</h3><a href=\"/post/\($0)\">\(sentence(8))</a></div>" }.joined()
        let article = (0..<220).map { index in
            "<p>\(sentence(70))</p>" + (index % 5 == 0 ? "<figure><img src=\"/img/\(index).jpg\" alt=\"\"><figcaption>\(sentence(6))</figcaption></figure>" : "")
        }.joined()
        let comments = (0..<220).map { "<div class=\"comment\"><p class=\"author\">Reader \($0)</p><p>\(sentence(25))</p></div>" }.joined()
        return """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A long season in the garden</title>
            <link rel="stylesheet" href="/style.css"><script src="/tracker.js"></script></head><body>
            <header><ul class="menu">\(menu)</ul></header><main><article><h1>A long season in the garden</h1>\(article)</article>
            <aside>\(sidebar)</aside><section class="comments">\(comments)</section></main><footer>Garden Notes</footer></body></html>
            """
    }

    /// Extracts the page `options.runs` times after `options.warmUps` untimed runs; medians.
    static func run(executable: URL, _ options: BenchOptions) throws -> Result {
        let text = page()
        let file = BenchFiles.directory.appendingPathComponent("article-200k.html")
        try Data(text.utf8).write(to: file)
        var times: [Double] = [], peaks: [Double] = []
        for index in 0..<(options.warmUps + options.runs) {
            let run = try ChildProcess.run(executable.path, ["--extract", file.path], environment: ProcessInfo.processInfo.environment)
            guard run.status == 0, run.output.contains("A long season in the garden"), !run.output.contains("Reader 7") else {
                throw BenchError("feed-reader --extract gave status \(run.status) and not the article alone")
            }
            if index >= options.warmUps {
                times.append(run.seconds * 1000)
                peaks.append(run.peakRSSMegabytes)
            }
        }
        return Result(milliseconds: Stats.median(times), peakRSSMegabytes: Stats.median(peaks), pageBytes: text.utf8.count)
    }
}
