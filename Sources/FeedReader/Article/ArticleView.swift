import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The selected entry beside the list: its title, feed, author and date, then its sanitized
/// content in a WebKit view that runs no script and never navigates: every link leaves the app.
@MainActor
final class ArticleView {
    /// What the pane shows.
    enum State: Equatable {
        /// No entry is selected.
        case empty
        /// An entry's article.
        case article
        /// WebKit's web process ended; a reload starts a new one.
        case crashed
    }

    /// What a navigation request inside the view turns into.
    enum Navigation: Equatable {
        /// Our own page load.
        case load
        /// A link: refused here, opened outside the app.
        case openExternally(URL)
        /// Anything else (redirects, frames the sanitizer let through by mistake): refused.
        case refuse
    }

    /// The address the article's page is loaded as; every other address is someone else's.
    nonisolated static let pageAddress = "about:blank"

    let widget: UnsafeMutablePointer<GtkWidget>
    let openButton: UnsafeMutablePointer<GtkWidget>
    let starButton: UnsafeMutablePointer<GtkWidget>
    /// The full article from the entry's web page: its button over the article, spinner and notice.
    let fullArticle = FullArticleControl()
    private let stack: UnsafeMutablePointer<GtkWidget>
    /// What the pane says while no entry is selected.
    private let emptyPage: OpaquePointer
    private let crashLabel: UnsafeMutablePointer<GtkWidget>
    private let reloadButton: UnsafeMutablePointer<GtkWidget>
    /// The article's column: the web view once there is one. Its star and open buttons go in
    /// the pane's header bar.
    private let articleBox: UnsafeMutablePointer<GtkWidget>
    /// Made when the first article is shown, not with the window: making a WebKit view loads
    /// WebKit's engine and starts its network process, which the window's first frame waited
    /// for, and whose memory it held, before anything was read.
    private var madeWebView: UnsafeMutablePointer<GtkWidget>?
    private(set) var state = State.empty
    /// The entry shown, if any.
    private(set) var entry: StoredEntry?
    /// The sanitized body of the entry shown, as loaded into the page.
    private(set) var bodyHTML: String?
    /// The whole page last loaded.
    private(set) var pageHTML: String?
    /// Whether the page of the entry shown has finished loading.
    private(set) var isLoaded = false
    private var feedTitle: String?
    /// Counts the entries shown (and clearings), so a body sanitized for an entry no longer
    /// shown is dropped.
    private var showings = 0

    /// Opens a link outside the app (the window applies its http/https/mailto policy).
    var onOpenLink: ((URL) -> Void)?

    init() {
        openButton = gtk_button_new_from_icon_name("web-browser-symbolic")!
        gtk_actionable_set_action_name(cast(openButton), "win.open-in-browser")
        starButton = gtk_button_new_from_icon_name("non-starred-symbolic")!
        gtk_actionable_set_action_name(cast(starButton), "win.toggle-star")
        articleBox = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0)

        emptyPage = OpaquePointer(adw_status_page_new()!)
        crashLabel = Widgets.label("", classes: ["title-4"], xalign: 0.5)
        gtk_label_set_wrap(cast(crashLabel), 1)
        reloadButton = gtk_button_new_with_mnemonic("")!
        gtk_widget_set_halign(reloadButton, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(reloadButton, "suggested-action")
        let crashed = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [crashLabel, reloadButton])
        gtk_widget_set_valign(crashed, GTK_ALIGN_CENTER)
        Widgets.setMargins(crashed, horizontal: 24, vertical: 24)

        stack = gtk_stack_new()!
        gtk_stack_add_named(cast(stack), UnsafeMutablePointer(emptyPage), "empty")
        gtk_stack_add_named(cast(stack), articleBox, "article")
        gtk_stack_add_named(cast(stack), crashed, "crashed")
        gtk_widget_set_vexpand(stack, 1)
        widget = stack
        gtk_stack_set_visible_child_name(cast(stack), "empty")

        Signal.connect(cast(reloadButton), "clicked") { [weak self] in self?.reload() }
        Signal.connectIgnoringArgument(cast(gtk_settings_get_default()), "notify::gtk-font-name") { [weak self] in
            guard let webView = self?.madeWebView else { return }
            self?.useDesktopFont(in: webView)
        }
        gtk_box_append(cast(articleBox), fullArticle.notice)
        gtk_box_append(cast(articleBox), fullArticle.overlay)
        fullArticle.present = { [weak self] body in self?.present(body) }
        retranslate()
    }

    /// The article's web view, made on first use (see `madeWebView`); nil when WebKitGTK
    /// could not be loaded.
    var webView: UnsafeMutablePointer<GtkWidget>? {
        if let madeWebView { return madeWebView }
        guard let webKit = WebKit.shared, let webView = webKit.webViewNew() else { return nil }
        Self.configure(settings: webKit.webViewGetSettings(webView), webKit)
        gtk_widget_set_vexpand(webView, 1)
        gtk_widget_set_hexpand(webView, 1)
        WebKitSignals.connectDecidePolicy(webView, owner: self)
        WebKitSignals.connectTerminated(webView, owner: self)
        WebKitSignals.connectLoadChanged(webView, owner: self)
        gtk_overlay_set_child(cast(fullArticle.overlay), webView)
        useDesktopFont(in: webView)
        madeWebView = webView
        return webView
    }

    /// Sets the page's text in the font GTK draws the window's own text with.
    private func useDesktopFont(in webView: UnsafeMutablePointer<GtkWidget>) {
        guard let webKit = WebKit.shared, let settings = webKit.webViewGetSettings(webView) else { return }
        let font = DesktopFont.current(for: webView)
        webKit.setDefaultFontFamily(settings, font.family)
        webKit.setSansSerifFontFamily(settings, font.family)
        webKit.setDefaultFontSize(settings, font.pixels)
    }

    /// Sets the pane's own texts in the current language.
    func retranslate() {
        adw_status_page_set_title(emptyPage, tr("No Entry Selected"))
        Widgets.nameScrolling(statusPage: emptyPage, tr("No Entry Selected"))
        adw_status_page_set_description(emptyPage, tr("Select an entry to read it"))
        gtk_label_set_text(cast(crashLabel), tr("The article view stopped unexpectedly."))
        gtk_button_set_label(cast(reloadButton), tr("_Reload"))
        Widgets.name(openButton, tr("Open in Browser"))
        updateStar()
        fullArticle.retranslate()
        if let bodyHTML { present(bodyHTML) }
    }

    /// Takes a change to the shown entry's read or starred state, without loading the page again.
    func update(_ changed: StoredEntry) {
        guard changed.id == entry?.id else { return }
        // Only the state: `changed` may be the list's copy, which has no body.
        entry?.isRead = changed.isRead
        entry?.isStarred = changed.isStarred
        updateStar()
    }

    /// Whether the star button offers to star or to unstar.
    var starButtonStars: Bool { entry?.isStarred != true }

    private func updateStar() {
        let starred = entry?.isStarred == true
        gtk_button_set_icon_name(cast(starButton), starred ? "starred-symbolic" : "non-starred-symbolic")
        Widgets.name(starButton, starred ? tr("Unstar") : tr("Star"))
    }

    /// Shows `entry`, loading its content once it is sanitized.
    ///
    /// The sanitizer runs off the main thread: its work is linear, but an entry can be megabytes
    /// of hostile markup, and the window must go on drawing and taking input meanwhile.
    func show(_ entry: StoredEntry, feedTitle: String?) {
        self.entry = entry
        self.feedTitle = feedTitle
        bodyHTML = nil
        pageHTML = nil
        isLoaded = false
        updateStar()
        showings += 1
        let showing = showings
        fullArticle.entryShown(entry)
        Task.detached(priority: .userInitiated) { [weak self] in
            let body = entry.articleHTML()
            await MainActor.run {
                guard let self, self.showings == showing, !self.fullArticle.showsArticle(of: entry.id) else { return }
                self.present(body)
            }
        }
    }

    /// Loads the page of the entry shown with its sanitized `body`.
    private func present(_ body: String) {
        guard let entry else { return }
        bodyHTML = body
        pageHTML = ArticlePage.html(for: entry, feedTitle: feedTitle, body: body)
        load()
    }

    /// Empties the pane, as when the selection goes away.
    func clear() {
        showings += 1
        fullArticle.cleared()
        entry = nil
        bodyHTML = nil
        pageHTML = nil
        isLoaded = false
        state = .empty
        gtk_stack_set_visible_child_name(cast(stack), "empty")
    }

    /// Loads the current page again, in a new web process after a crash.
    func reload() {
        guard pageHTML != nil else { return }
        load()
    }

    private func load() {
        guard let pageHTML else { return }
        isLoaded = false
        state = .article
        gtk_widget_set_sensitive(openButton, (entry?.link.map(MainWindow.opensInBrowser) ?? false).gboolean)
        // Without WebKitGTK the pane says the view stopped, as when its web process ends.
        guard let webKit = WebKit.shared, let webView else { return webProcessTerminated() }
        gtk_stack_set_visible_child_name(cast(stack), "article")
        webKit.webViewLoadHTML(webView, pageHTML, Self.pageAddress)
    }

    /// Decides a navigation request: only our own page loads; a clicked link opens outside.
    nonisolated static func navigation(to address: String, isLinkClick: Bool, isOwnLoad: Bool) -> Navigation {
        if isOwnLoad, address == pageAddress { return .load }
        guard isLinkClick, let url = URL(string: address), MainWindow.opensInBrowser(url) else { return .refuse }
        return .openExternally(url)
    }

    fileprivate func decide(_ navigation: Navigation) {
        if case let .openExternally(url) = navigation { onOpenLink?(url) }
    }

    fileprivate func webProcessTerminated() {
        isLoaded = false
        state = .crashed
        gtk_stack_set_visible_child_name(cast(stack), "crashed")
    }

    fileprivate func loadFinished() {
        isLoaded = state == .article
    }

    /// Scrolls the article down by most of a page; `completion` gets true when it was already at
    /// its end (Space then moves on to the next unread entry).
    func pageDown(completion: @escaping @MainActor (Bool) -> Void) {
        guard state == .article, isLoaded, let webKit = WebKit.shared, let webView else { return completion(true) }
        let box = Unmanaged.passRetained(PageDownBox(completion)).toOpaque()
        let finished: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = { source, result, data in
            guard let data else { return }
            let box = Unmanaged<PageDownBox>.fromOpaque(data).takeRetainedValue()
            var atEnd = true
            if let webKit = WebKit.shared, let value = webKit.webViewEvaluateJavaScriptFinish(source, result, nil) {
                atEnd = webKit.valueToBoolean(value) != 0
                g_object_unref(cast(value))
            }
            onMainActor { box.completion(atEnd) }
        }
        // Runs in a world of its own: the page's scripts are off and could not see or change it.
        webKit.webViewEvaluateJavaScript(webView, Self.pageDownScript, -1, "feed-reader", nil, nil, finished, box)
    }

    /// True at the end of the page; otherwise scrolls by 90% of the window and returns false.
    private static let pageDownScript = """
        (function () {
            var end = document.scrollingElement.scrollHeight - window.innerHeight;
            if (window.scrollY >= end - 2) return true;
            window.scrollBy(0, Math.round(window.innerHeight * 0.9));
            return false;
        })()
        """

    private final class PageDownBox {
        let completion: @MainActor (Bool) -> Void
        init(_ completion: @escaping @MainActor (Bool) -> Void) { self.completion = completion }
    }

    /// No page scripts, plugins or storage; images load. JavaScript
    /// itself stays on only for the app's own paging script, in an isolated world.
    private static func configure(settings: OpaquePointer?, _ webKit: WebKit) {
        guard let settings else { return }
        webKit.setEnableJavaScript(settings, 1)
        webKit.setEnableJavaScriptMarkup(settings, 0)
        webKit.setEnableHTML5LocalStorage(settings, 0)
        webKit.setEnableHTML5Database(settings, 0)
        webKit.setEnableWebGL(settings, 0)
        webKit.setEnableWebAudio(settings, 0)
        webKit.setEnableMedia(settings, 0)
        webKit.setEnableDeveloperExtras(settings, 0)
        webKit.setJavaScriptCanOpenWindowsAutomatically(settings, 0)
        webKit.setAutoLoadImages(settings, 1)
    }
}

/// The desktop's interface font, which the article uses too.
struct DesktopFont {
    var family: String
    var pixels: UInt32

    /// GTK's `gtk-font-name` (X settings under X11, org.gnome.desktop.interface font-name under
    /// Wayland), in CSS pixels at 96 dpi, as the family `widget`'s text is drawn with.
    ///
    /// That family is the one installed: "Cantarell 11" without Cantarell is drawn by GTK in
    /// fontconfig's substitute, but WebKit would fall back to its serif default instead.
    @MainActor static func current(for widget: UnsafeMutablePointer<GtkWidget>) -> DesktopFont {
        let name = gtkFontName() ?? "Sans 11"
        let description = pango_font_description_from_string(name)
        defer { pango_font_description_free(description) }
        let requested = pango_font_description_get_family(description).map { String(cString: $0) } ?? "Sans"
        let points = Double(pango_font_description_get_size(description)) / Double(PANGO_SCALE)
        return DesktopFont(family: drawnFamily(of: description, for: widget) ?? requested,
                           pixels: UInt32(max(9, (points > 0 ? points : 11) * 96 / 72).rounded()))
    }

    /// GtkSettings' `gtk-font-name`, read through a GValue: `g_object_get` is variadic.
    @MainActor static func gtkFontName() -> String? {
        guard let settings = gtk_settings_get_default() else { return nil }
        var value = GValue()
        g_value_init(&value, g_type_from_name("gchararray"))
        defer { g_value_unset(&value) }
        g_object_get_property(cast(settings), "gtk-font-name", &value)
        return g_value_get_string(&value).map { String(cString: $0) }
    }

    /// The family Pango draws `description` with in `widget`, after fontconfig's substitutions.
    @MainActor static func drawnFamily(of description: OpaquePointer?, for widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        guard let context = gtk_widget_create_pango_context(widget) else { return nil }
        defer { g_object_unref(cast(context)) }
        guard let font = pango_context_load_font(context, description) else { return nil }
        defer { g_object_unref(cast(font)) }
        let drawn = pango_font_describe(font)
        defer { pango_font_description_free(drawn) }
        return pango_font_description_get_family(drawn).map { String(cString: $0) }
    }
}

/// The article's web page: a header with the entry's details above its sanitized body.
enum ArticlePage {
    /// A complete page; `body` must already be sanitized, everything else is escaped here.
    static func html(for entry: StoredEntry, feedTitle: String?, body: String) -> String {
        let title = entry.title?.isEmpty == false ? entry.title! : tr("Untitled")
        let details = [feedTitle, entry.author, EntryDateText.text(for: entry.sortDate)]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
        let direction = gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL ? "rtl" : "ltr"
        return """
            <!DOCTYPE html>
            <html dir="\(direction)"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'">
            <style>\(style)</style></head>
            <body><header><h1 dir="auto">\(Markup.escaped(title))</h1><p class="details" dir="auto">\(Markup.escaped(details))</p></header>
            <article dir="auto">\(body)</article></body></html>
            """
    }

    /// Light and dark colours after the system's choice, text sized to the column, images scaled to fit.
    static let style = """
        :root { color-scheme: light dark; }
        body { margin: 0 auto; padding: 12px 24px 32px; max-width: 46em; line-height: 1.55;
               color: #1e1e1e; background: #ffffff; overflow-wrap: break-word; }
        h1 { font-size: 1.6em; line-height: 1.25; margin: 0.3em 0 0.2em; }
        .details { color: #5e5c64; margin: 0 0 1.5em; }
        img, video { max-width: 100%; height: auto; }
        pre { overflow-x: auto; padding: 10px 12px; border-radius: 6px; background: #f2f2f2; }
        code { font-family: monospace; font-size: 0.92em; }
        table { border-collapse: collapse; margin: 1em 0; }
        th, td { border: 1px solid #c0bfbc; padding: 4px 10px; text-align: start; }
        blockquote { margin: 1em 0; padding-inline-start: 1em; border-inline-start: 3px solid #c0bfbc; color: #5e5c64; }
        a { color: #1c71d8; }
        @media (prefers-color-scheme: dark) {
            body { color: #ffffff; background: #1e1e1e; }
            .details, blockquote { color: #c0bfbc; }
            pre { background: #303030; }
            th, td, blockquote { border-color: #5e5c64; }
            a { color: #78aeed; }
        }
        """
}

/// WebKit's signals whose signatures `Signal` has no form for, each calling a weakly held view.
private enum WebKitSignals {
    final class WeakView {
        weak var view: ArticleView?
        init(_ view: ArticleView) { self.view = view }
    }

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<WeakView>.fromOpaque(data).release()
    }

    private static func connect(_ webView: UnsafeMutablePointer<GtkWidget>, _ name: String, owner: ArticleView, _ trampoline: GCallback) {
        let box = Unmanaged.passRetained(WeakView(owner)).toOpaque()
        g_signal_connect_data(webView, name, trampoline, box, release, GConnectFlags(0))
    }

    fileprivate static func view(_ data: gpointer?) -> ArticleView? {
        guard let data else { return nil }
        return Unmanaged<WeakView>.fromOpaque(data).takeUnretainedValue().view
    }

    /// decide-policy: answers every navigation itself so nothing is followed inside the view.
    static func connectDecidePolicy(_ webView: UnsafeMutablePointer<GtkWidget>, owner: ArticleView) {
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, UInt32, gpointer?) -> gboolean = { _, decision, type, data in
            guard let decision, let webKit = WebKit.shared,
                  type == WebKit.policyNavigationAction || type == WebKit.policyNewWindowAction else { return 0 }
            let action = webKit.navigationPolicyDecisionGetNavigationAction(decision)
            let address = webKit.uriRequestGetURI(webKit.navigationActionGetRequest(action)).map { String(cString: $0) } ?? ""
            let kind = webKit.navigationActionGetNavigationType(action)
            let navigation = ArticleView.navigation(
                to: address,
                isLinkClick: kind == WebKit.navigationLinkClicked,
                isOwnLoad: type == WebKit.policyNavigationAction && kind == WebKit.navigationOther
            )
            if navigation == .load {
                webKit.policyDecisionUse(decision)
            } else {
                webKit.policyDecisionIgnore(decision)
                let view = WebKitSignals.view(data)
                onMainActor { view?.decide(navigation) }
            }
            return 1
        }
        connect(webView, "decide-policy", owner: owner, unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// web-process-terminated: the view says so instead of staying blank.
    static func connectTerminated(_ webView: UnsafeMutablePointer<GtkWidget>, owner: ArticleView) {
        let trampoline: @convention(c) (gpointer?, UInt32, gpointer?) -> Void = { _, _, data in
            let view = WebKitSignals.view(data)
            onMainActor { view?.webProcessTerminated() }
        }
        connect(webView, "web-process-terminated", owner: owner, unsafeBitCast(trampoline, to: GCallback.self))
    }

    /// load-changed: records when the page has finished loading.
    static func connectLoadChanged(_ webView: UnsafeMutablePointer<GtkWidget>, owner: ArticleView) {
        let trampoline: @convention(c) (gpointer?, UInt32, gpointer?) -> Void = { _, event, data in
            guard event == WebKit.loadFinished else { return }
            let view = WebKitSignals.view(data)
            onMainActor { view?.loadFinished() }
        }
        connect(webView, "load-changed", owner: owner, unsafeBitCast(trampoline, to: GCallback.self))
    }
}
