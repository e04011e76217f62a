import Foundation

/// `extract_200k_ms` and `extract_200k_peak_rss_mb`: the release `feed-reader --extract` on a
/// generated 200 KB blog page (the article among a long menu, a sidebar and comments, as a
/// real page has them), process start and WebKit's start included, and its peak resident
/// memory as GNU time counts it.
@MainActor
enum ExtractBench {
    struct Result {
        var milliseconds: Double
        var peakRSSMegabytes: Double
        var pageBytes: Int
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
