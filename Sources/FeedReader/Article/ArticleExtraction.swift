import AppSignals
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Why an entry's page gave no full article.
enum ArticleExtractionError: Error, Equatable {
    /// The page could not be read: an HTTP error, a timeout, a missing file.
    case unreadablePage(FetchError)
    /// The page was read, but holds no article: a listing, a log-in form, an empty page.
    case noArticle
    /// WebKit took longer than the extraction's time limit.
    case timedOut
    /// WebKit could not lay the page out, or the extraction script failed on it; WebKit's words.
    case extractionFailed(String)
    /// WebKitGTK (libwebkitgtk-6.0-4) could not be loaded.
    case webKitMissing
    /// The app's resources, which hold Readability.js, are missing.
    case resourcesMissing
}

/// Extracts the readable article of a web page with Mozilla's Readability.js, as Firefox's
/// Reader View does, in an offscreen WebKit view that loads nothing but the page's markup.
///
/// The page's own scripts never run (JavaScript markup is off) and its parts (style sheets,
/// images, frames) are never requested (`WebPage.loadNothingPolicy`). Readability runs in a
/// script world of its own, where the page's globals cannot reach it. Its result is sanitized
/// like any entry's content before anyone sees it. Each extraction has a view of its own,
/// released with its web process when it ends.
@MainActor
final class ArticleExtraction {
    /// The script world Readability runs in.
    nonisolated static let worldName = "feed-reader-extraction"
    /// How long WebKit may take to load the page and run Readability.
    nonisolated static let defaultTimeout: Duration = .seconds(20)
    /// The least text, in characters, an extracted article must have: Readability returns the
    /// best candidate it finds even on a page of links, and a few words are not an article.
    nonisolated static let minimumTextLength = 200
    /// The largest page extracted: WebKit's processes take about a hundred times a page's size
    /// in memory while Readability walks it, and no article is this long.
    nonisolated static let maxPageSize = 5 << 20
    /// Where Readability.js is in the app's resources.
    static let scriptPath = AppResources.basePath + "readability/Readability.js"

    /// The article of the page at `url` (http, https, or a file when `readsFiles`: see
    /// `FeedFetcher.fetchPage`), sanitized, its links resolved against the page's address after
    /// redirects.
    static func extract(from url: URL, readsFiles: Bool, fetcher: FeedFetcher = FeedFetcher(),
                        timeout: Duration = defaultTimeout) async throws(ArticleExtractionError) -> FullArticle {
        var limits = fetcher.configuration
        limits.maxBodySize = min(limits.maxBodySize, maxPageSize)
        let page: WebPage
        do {
            page = try await FeedFetcher(configuration: limits).fetchPage(url, readsFiles: readsFiles)
        } catch {
            throw .unreadablePage(error)
        }
        return try await extract(from: page, timeout: timeout)
    }

    /// The article of `page`, sanitized.
    static func extract(from page: WebPage, timeout: Duration = defaultTimeout) async throws(ArticleExtractionError) -> FullArticle {
        guard let webKit = WebKit.shared, let extras = ExtractionWebKit.shared else { throw .webKitMissing }
        guard let script = readabilityScript() else { throw .resourcesMissing }
        let found = await withCheckedContinuation { continuation in
            let run = ArticleExtraction(page: page, webKit: webKit, extras: extras, script: script) { continuation.resume(returning: $0) }
            run.start(timeout: timeout)
        }
        let raw = try found.get()
        let pageURL = page.url
        let html = await Task.detached(priority: .userInitiated) { HTMLSanitizer.sanitize(raw.content, base: pageURL) }.value
        let text = HTMLText.plainText(fromHTML: html).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count >= minimumTextLength else { throw .noArticle }
        let title = raw.title?.trimmingCharacters(in: .whitespacesAndNewlines)
        return FullArticle(title: title?.isEmpty == false ? title : nil, html: html, pageURL: pageURL)
    }

    /// Readability.js from the app's resources, followed by the call that returns its article as
    /// JSON ({title, content}), or null when it found none.
    private static func readabilityScript() -> String? {
        guard AppResources.register(),
              let bytes = g_resources_lookup_data(scriptPath, GResourceLookupFlags(0), nil) else { return nil }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return nil }
        let library = String(decoding: UnsafeRawBufferPointer(start: data, count: Int(size)), as: UTF8.self)
        // The page's markup reaches this script world through named properties: `<img
        // name="cloneNode">` hides `document.cloneNode`, a form's controls hide the form's own
        // methods. So the document is cloned through the prototype, and the clone Readability
        // walks loses the names and ids that make such properties (a `<meta>`'s name is kept:
        // Readability reads the byline there).
        return library + """

            ;(function () {
                var clone = Node.prototype.cloneNode.call(document, true);
                var identified = "img[id], embed[id], object[id], button[id], fieldset[id], input[id], output[id], select[id], textarea[id]";
                var naming = Document.prototype.querySelectorAll.call(clone, "[name]:not(meta), " + identified);
                for (var i = 0; i < naming.length; i++) {
                    Element.prototype.removeAttribute.call(naming[i], "name");
                    if (Element.prototype.matches.call(naming[i], identified)) Element.prototype.removeAttribute.call(naming[i], "id");
                }
                var article = new Readability(clone).parse();
                return article && article.content ? JSON.stringify({ title: article.title, content: article.content }) : null;
            })();
            """
    }

    /// What Readability returned.
    struct Raw: Decodable, Sendable {
        var title: String?
        var content: String
    }

    private let page: WebPage
    private let webKit: WebKit
    private let extras: ExtractionWebKit
    private let script: String
    private let completion: (Result<Raw, ArticleExtractionError>) -> Void
    private var webView: UnsafeMutablePointer<GtkWidget>?
    private var hasNavigated = false
    private var hasLoaded = false
    private var isFinished = false
    private var timer: Task<Void, Never>?
    /// The runs under way, each kept until it finishes: the view's signals hold them weakly.
    private static var running: [ObjectIdentifier: ArticleExtraction] = [:]

    private init(page: WebPage, webKit: WebKit, extras: ExtractionWebKit, script: String,
                 completion: @escaping (Result<Raw, ArticleExtractionError>) -> Void) {
        self.page = page
        self.webKit = webKit
        self.extras = extras
        self.script = script
        self.completion = completion
    }

    private func start(timeout: Duration) {
        guard let view = webKit.privateWebView() else { return finish(.failure(.webKitMissing)) }
        g_object_ref_sink(cast(view))
        webView = view
        Self.running[ObjectIdentifier(self)] = self
        configure(webKit.webViewGetSettings(view))
        ExtractionSignals.connect(view, to: self)
        timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self?.finish(.failure(.timedOut))
        }
        let locked = page.lockedDown
        let bytes = locked.body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        extras.webViewLoadBytes(view, bytes, "text/html", locked.charset, locked.url.absoluteString)
        g_bytes_unref(bytes)
    }

    /// JavaScript on for our script alone (markup off: no page script runs); nothing loaded,
    /// played or stored; no GL for a view that is never drawn.
    private func configure(_ settings: WebKit.Settings?) {
        guard let settings else { return }
        webKit.setEnableJavaScript(settings, 1)
        webKit.setEnableJavaScriptMarkup(settings, 0)
        webKit.setAutoLoadImages(settings, 0)
        webKit.setEnableMedia(settings, 0)
        webKit.setEnableWebGL(settings, 0)
        webKit.setEnableWebAudio(settings, 0)
        webKit.setEnableHTML5LocalStorage(settings, 0)
        webKit.setEnableHTML5Database(settings, 0)
        extras.setEnablePageCache(settings, 0)
        extras.setHardwareAccelerationPolicy(settings, ExtractionWebKit.hardwareAccelerationNever)
    }

    /// Only the page's own load, the first navigation, is followed: a meta refresh or anything
    /// else is refused.
    fileprivate func allowsNavigation() -> Bool {
        defer { hasNavigated = true }
        return !hasNavigated && !isFinished
    }

    fileprivate func loadFinished() {
        guard !hasLoaded, !isFinished, let webView else { return }
        hasLoaded = true
        let box = Unmanaged.passRetained(ExtractionSignals.WeakRun(self)).toOpaque()
        let evaluated: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = { source, result, data in
            guard let data else { return }
            let run = Unmanaged<ExtractionSignals.WeakRun>.fromOpaque(data).takeRetainedValue().run
            var error: UnsafeMutablePointer<GError>?
            let value = WebKit.shared?.webViewEvaluateJavaScriptFinish(source, result, &error)
            let outcome = ArticleExtraction.outcome(of: value, error: error)
            if let value { g_object_unref(cast(value)) }
            g_clear_error(&error)
            onMainActor { run?.finish(outcome) }
        }
        webKit.webViewEvaluateJavaScript(webView, script, -1, Self.worldName, Self.scriptPath, nil, evaluated, box)
    }

    /// The article in Readability's answer, or why there is none.
    nonisolated private static func outcome(of value: OpaquePointer?, error: UnsafeMutablePointer<GError>?) -> Result<Raw, ArticleExtractionError> {
        if let error { return .failure(.extractionFailed(String(cString: error.pointee.message))) }
        guard let value, let extras = ExtractionWebKit.shared, extras.valueIsString(value) != 0,
              let text = extras.valueToString(value) else { return .failure(.noArticle) }
        defer { g_free(text) }
        guard let raw = try? JSONDecoder().decode(Raw.self, from: Data(String(cString: text).utf8)) else { return .failure(.noArticle) }
        return .success(raw)
    }

    fileprivate func loadFailed(_ message: String) {
        guard !hasLoaded else { return }
        finish(.failure(.extractionFailed(message)))
    }

    fileprivate func webProcessTerminated() {
        finish(.failure(.extractionFailed("WebKit’s web process ended")))
    }

    private func finish(_ outcome: Result<Raw, ArticleExtractionError>) {
        guard !isFinished else { return }
        isFinished = true
        timer?.cancel()
        Self.running[ObjectIdentifier(self)] = nil
        if let webView {
            // Released once the signal that may be under way has returned: the view goes, and its web process with it.
            g_idle_add_full(200, { view in g_object_unref(view); return 0 }, webView, nil)
            self.webView = nil
        }
        completion(outcome)
    }
}

/// The offscreen view's signals, each calling the run it belongs to while that run lasts.
private enum ExtractionSignals {
    /// A run held weakly, for the JavaScript call's completion.
    final class WeakRun {
        weak var run: ArticleExtraction?
        init(_ run: ArticleExtraction) { self.run = run }
    }

    @MainActor static func connect(_ webView: UnsafeMutablePointer<GtkWidget>, to run: ArticleExtraction) {
        Signal.connectObjectUIntReturningBool(webView, "decide-policy") { [weak run] decision, type in
            guard let webKit = WebKit.shared else { return false }
            let allowed = type == WebKit.policyNavigationAction && run?.allowsNavigation() == true
            if allowed { webKit.policyDecisionUse(OpaquePointer(decision)) } else { webKit.policyDecisionIgnore(OpaquePointer(decision)) }
            return true
        }
        Signal.connectUInt(webView, "load-changed") { [weak run] event in
            if event == WebKit.loadFinished { run?.loadFinished() }
        }
        Signal.connectUIntStringErrorReturningBool(webView, "load-failed") { [weak run] _, _, message in
            run?.loadFailed(message ?? "the page could not be loaded")
            return true
        }
        Signal.connectUInt(webView, "web-process-terminated") { [weak run] _ in run?.webProcessTerminated() }
    }
}
