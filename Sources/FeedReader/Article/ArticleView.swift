import AppSignals
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
    /// Notices about the article itself (its text size), shown over it rather than across the window's panes.
    let toasts: Toasts
    let openButton: UnsafeMutablePointer<GtkWidget>
    let starButton: UnsafeMutablePointer<GtkWidget>
    /// The full article from the entry's web page: its toggle in the header bar, spinner and notice.
    let fullArticle = FullArticleControl()
    /// The pane's pages (empty, welcome, article, crashed, nothing), under its toast overlay.
    let stack: UnsafeMutablePointer<GtkWidget>
    /// Whether the pane's widgets still exist: the window may close while a body is sanitized.
    private let life: WidgetLife
    /// What the pane says while no entry is selected.
    private let emptyPage: OpaquePointer
    /// Says it instead in the first window the app opens, once offered.
    private(set) var welcome: FirstRunWelcome?
    /// Whether anything is subscribed: with nothing, the list's "No Feeds Yet" is the window's
    /// one empty state, and the pane says nothing beside it.
    var hasFeeds = true {
        didSet { if state == .empty, hasFeeds != oldValue { showEmptyPage() } }
    }
    /// What the pane says once the web process has ended, as the other panes' empty and error
    /// states say theirs: an icon, a title, a sentence and Reload.
    let crashedPage: OpaquePointer
    private let reloadButton: UnsafeMutablePointer<GtkWidget>
    /// Above the article while its remote images are held back: says so, with a button to load them.
    let imagesBar: UnsafeMutablePointer<GtkWidget>
    private let imagesLabel: UnsafeMutablePointer<GtkWidget>
    let loadImagesButton: UnsafeMutablePointer<GtkWidget>
    /// Whether the entry shown loads its remote images although the preference is off.
    var loadsImagesOnce = false
    /// The article's column: the web view once there is one. Its star, open and full-article
    /// buttons go in the pane's header bar.
    let articleBox: UnsafeMutablePointer<GtkWidget>
    /// The page's place in the column: a spinner until the web view shows its first page (its
    /// web process starts with the first article, for about two seconds), then the web view.
    private let pageStack: UnsafeMutablePointer<GtkWidget>
    /// Spins while ``pageStack`` shows it.
    let loadingSpinner: UnsafeMutablePointer<GtkWidget>
    /// Whether the web view has shown a page since its web process started: until then it is
    /// blank, and the spinner shows in its place.
    private var hasShownPage = false
    /// Made when the first article is shown, not with the window: making a WebKit view loads
    /// WebKit's engine and starts its network process, which the window's first frame waited
    /// for, and whose memory it held, before anything was read.
    private(set) var madeWebView: UnsafeMutablePointer<GtkWidget>?
    private(set) var state = State.empty
    /// The entry's audio and video players and downloads, above its page.
    let media = MediaPanel()
    /// The entry shown, if any.
    private(set) var entry: StoredEntry?
    /// The sanitized body of the entry shown, as loaded into the page.
    private(set) var bodyHTML: String?
    /// The whole page last loaded.
    private(set) var pageHTML: String?
    /// The look the page last loaded was made with.
    private(set) var pageLook: ArticlePage.Look?
    /// Whether the page of the entry shown has finished loading.
    private(set) var isLoaded = false
    /// Whether the page takes the keyboard as soon as it shows (``focusPage()``).
    private var pageTakesFocus = false
    private var feedTitle: String?
    /// Counts the entries shown (and clearings), so a body sanitized for an entry no longer
    /// shown is dropped.
    private var showings = 0

    /// Opens a link outside the app (the window applies its http/https/mailto policy).
    var onOpenLink: ((URL) -> Void)?

    /// The reader's font, size, line length, zoom and image choices, which the view applies.
    var preferences: Preferences? {
        didSet {
            media.preferences = preferences
            applyPreferences()
        }
    }

    init() {
        openButton = gtk_button_new_from_icon_name("web-browser-symbolic")!
        gtk_actionable_set_action_name(cast(openButton), "win.open-in-browser")
        starButton = gtk_button_new_from_icon_name(Self.unstarredIcon)!
        gtk_actionable_set_action_name(cast(starButton), "win.toggle-star")
        articleBox = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [media.widget])
        imagesLabel = Widgets.label("", classes: ["dim-label"])
        gtk_label_set_wrap(cast(imagesLabel), 1)
        gtk_widget_set_hexpand(imagesLabel, 1)
        loadImagesButton = gtk_button_new_with_mnemonic("")!
        gtk_widget_set_valign(loadImagesButton, GTK_ALIGN_CENTER)
        let imagesOffer = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [imagesLabel, loadImagesButton])
        Widgets.setMargins(imagesOffer, horizontal: 12, vertical: 6)
        imagesBar = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [imagesOffer, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!])
        gtk_widget_set_visible(imagesBar, 0)
        gtk_box_append(cast(articleBox), imagesBar)
        loadingSpinner = gtk_spinner_new()!
        gtk_widget_set_size_request(loadingSpinner, 32, 32)
        gtk_widget_set_halign(loadingSpinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(loadingSpinner, GTK_ALIGN_CENTER)
        pageStack = gtk_stack_new()!
        gtk_widget_set_vexpand(pageStack, 1)
        gtk_widget_set_hexpand(pageStack, 1)
        gtk_stack_add_named(cast(pageStack), loadingSpinner, "loading")

        emptyPage = OpaquePointer(adw_status_page_new()!)
        adw_status_page_set_icon_name(emptyPage, FeedReaderApp.applicationID + "-symbolic")
        crashedPage = OpaquePointer(adw_status_page_new()!)
        adw_status_page_set_icon_name(crashedPage, "computer-fail-symbolic")
        reloadButton = gtk_button_new_with_mnemonic("")!
        gtk_widget_set_halign(reloadButton, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(reloadButton, "pill")
        gtk_widget_add_css_class(reloadButton, "suggested-action")
        adw_status_page_set_child(crashedPage, reloadButton)

        stack = gtk_stack_new()!
        gtk_stack_add_named(cast(stack), UnsafeMutablePointer(emptyPage), "empty")
        gtk_stack_add_named(cast(stack), articleBox, "article")
        gtk_stack_add_named(cast(stack), UnsafeMutablePointer(crashedPage), "crashed")
        gtk_stack_add_named(cast(stack), adw_bin_new(), "nothing")
        gtk_widget_set_vexpand(stack, 1)
        let overlay = adw_toast_overlay_new()!
        adw_toast_overlay_set_child(OpaquePointer(overlay), stack)
        widget = overlay
        toasts = Toasts(overlay: OpaquePointer(overlay))
        life = WidgetLife(stack)
        gtk_stack_set_visible_child_name(cast(stack), "empty")

        Signal.connect(cast(reloadButton), "clicked") { [weak self] in self?.reload() }
        Signal.connect(cast(loadImagesButton), "clicked") { [weak self] in self?.loadImagesOnce() }
        Signal.connectIgnoringArgument(cast(gtk_settings_get_default()), "notify::gtk-font-name") { [weak self] in
            self?.applyFont()
        }
        for property in ["notify::dark", "notify::high-contrast"] {
            Signal.connectIgnoringArgument(cast(adw_style_manager_get_default()), property) { [weak self] in self?.applyLook() }
        }
        addZoomByScrolling()
        openOnEnter()
        gtk_box_append(cast(articleBox), fullArticle.notice)
        gtk_box_append(cast(articleBox), pageStack)
        fullArticle.present = { [weak self] body in self?.present(body) }
        nameParts()
        updateStar()
    }

    /// The pane's own texts, kept in the current language (``LanguageTexts``).
    private func nameParts() {
        LanguageTexts.keep(UnsafeMutableRawPointer(emptyPage), .property("title")) { tr("No Entry Selected") }
        // The status page's scrolled window is what a screen reader lands on.
        if let scrolling = gtk_widget_get_first_child(UnsafeMutablePointer(emptyPage)) {
            LanguageTexts.keep(scrolling, .accessibleLabel) { tr("No Entry Selected") }
        }
        LanguageTexts.keep(UnsafeMutableRawPointer(emptyPage), .property("description")) { tr("Select an entry to read it.") }
        LanguageTexts.keep(UnsafeMutableRawPointer(crashedPage), .property("title")) { tr("The Article View Stopped") }
        if let scrolling = gtk_widget_get_first_child(UnsafeMutablePointer(crashedPage)) {
            LanguageTexts.keep(scrolling, .accessibleLabel) { tr("The Article View Stopped") }
        }
        LanguageTexts.keep(UnsafeMutableRawPointer(crashedPage), .property("description")) {
            tr("Something went wrong while showing this article.")
        }
        LanguageTexts.keep(reloadButton, .property("label")) { tr("_Reload") }
        LanguageTexts.keep(imagesLabel, .property("label")) { tr("Remote images are not loaded, so their sites cannot tell that you read this.") }
        LanguageTexts.keep(loadImagesButton, .property("label")) { tr("_Load Images") }
        LanguageTexts.name(openButton) { tr("Open in Browser") }
        LanguageTexts.name(loadingSpinner) { tr("Loading the article") }
    }

    /// The article's web view, made on first use (see `madeWebView`); nil when WebKitGTK
    /// could not be loaded.
    var webView: UnsafeMutablePointer<GtkWidget>? {
        if let madeWebView { return madeWebView }
        guard let webKit = WebKit.shared, let webView = webKit.privateWebView() else { return nil }
        Self.configure(settings: webKit.webViewGetSettings(webView), webKit)
        gtk_widget_set_vexpand(webView, 1)
        gtk_widget_set_hexpand(webView, 1)
        connectSignals(of: webView)
        gtk_stack_add_named(cast(pageStack), webView, "page")
        madeWebView = webView
        applyFont()
        applyZoom()
        return webView
    }

    /// Gives the keyboard to the article's page, for reading: the arrow keys and Page Down scroll
    /// it, and Enter opens it in the browser. A page not shown yet (its text being made ready, its
    /// web view starting) takes it once it shows, unless ``keepFocusWhereItIs()`` came first.
    func focusPage() {
        pageTakesFocus = true
        focusPageIfShown()
    }

    /// Leaves the keyboard where it is when the page shows: another pane has taken it.
    func keepFocusWhereItIs() {
        pageTakesFocus = false
    }

    private func focusPageIfShown() {
        guard pageTakesFocus, let webView = madeWebView, gtk_widget_get_mapped(webView) != 0 else { return }
        pageTakesFocus = false
        gtk_widget_grab_focus(webView)
    }

    /// Enter on the page opens the entry in the browser, as on its row; the page has it first
    /// (WebKit passes on a key the page leaves, such as Enter on no link).
    private func openOnEnter() {
        let keys = gtk_event_controller_key_new()!
        Signal.connectKeyPressed(cast(keys), "key-pressed") { [weak self] keyval, _, state in
            let modifiers = state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue)
            guard let self, modifiers == 0, [GDK_KEY_Return, GDK_KEY_KP_Enter].map(UInt32.init).contains(keyval),
                  let webView = self.madeWebView, gtk_widget_has_focus(webView) != 0 else { return false }
            return gtk_widget_activate_action_variant(self.widget, "win.open-in-browser", nil) != 0
        }
        gtk_widget_add_controller(widget, keys)
    }

    /// Follows what the web view does: which navigation it may take, when its page has loaded,
    /// when its web process ended.
    private func connectSignals(of webView: UnsafeMutablePointer<GtkWidget>) {
        // The page shown at last takes the keyboard it was given before (``focusPage()``).
        Signal.connect(cast(webView), "map") { [weak self] in self?.focusPageIfShown() }
        Signal.connectObjectUIntReturningBool(webView, "decide-policy") { [weak self] decision, type in
            guard let webKit = WebKit.shared, type == WebKit.policyNavigationAction || type == WebKit.policyNewWindowAction else {
                return false
            }
            let action = webKit.navigationPolicyDecisionGetNavigationAction(OpaquePointer(decision))
            let address = webKit.uriRequestGetURI(webKit.navigationActionGetRequest(action)).map { String(cString: $0) } ?? ""
            let kind = webKit.navigationActionGetNavigationType(action)
            let navigation = ArticleView.navigation(
                to: address,
                isLinkClick: kind == WebKit.navigationLinkClicked,
                isOwnLoad: type == WebKit.policyNavigationAction && kind == WebKit.navigationOther
            )
            if navigation == .load {
                webKit.policyDecisionUse(OpaquePointer(decision))
            } else {
                webKit.policyDecisionIgnore(OpaquePointer(decision))
                self?.decide(navigation)
            }
            return true
        }
        Signal.connectUInt(webView, "web-process-terminated") { [weak self] _ in self?.webProcessTerminated() }
        Signal.connectUInt(webView, "load-changed") { [weak self] event in
            if event == WebKit.loadCommitted { self?.showPage() }
            if event == WebKit.loadFinished { self?.loadFinished() }
        }
    }

    /// Shows the entry again in the current language: its page's header, its star's name, its
    /// players and the full-article notice. A page shown keeps where it was scrolled: only its
    /// header is written again; one still loading is loaded again.
    func showPageAgain() {
        updateStar()
        media.rebuild()
        guard let entry, let bodyHTML, let pageLook else { return }
        guard isLoaded, let webView = madeWebView, let webKit = WebKit.shared else { return present(bodyHTML) }
        pageHTML = ArticlePage.html(for: entry, feedTitle: feedTitle, body: bodyHTML, look: pageLook)
        // In a world of our own, like the look's script: the page's scripts are off and never see it.
        webKit.webViewEvaluateJavaScript(webView, ArticlePage.headerScript(for: entry, feedTitle: feedTitle), -1, "feed-reader", nil, nil, nil, nil)
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

    /// The app's outlined star, drawn at full strength: the theme's is faded like a disabled button.
    static let unstarredIcon = "io.github.refreshgtk.FeedReader-unstarred-symbolic"

    private func updateStar() {
        let starred = entry?.isStarred == true
        gtk_button_set_icon_name(cast(starButton), starred ? "starred-symbolic" : Self.unstarredIcon)
        Widgets.name(starButton, starred ? tr("Unstar") : tr("Star"))
    }

    /// Shows `entry`, loading its content once it is sanitized.
    ///
    /// The sanitizer runs off the main thread: its work is linear, but an entry can be megabytes
    /// of hostile markup, and the window must go on drawing and taking input meanwhile.
    func show(_ entry: StoredEntry, feedTitle: String?) {
        retireWelcome()
        self.entry = entry
        self.feedTitle = feedTitle
        bodyHTML = nil
        pageHTML = nil
        isLoaded = false
        loadsImagesOnce = false
        updateStar()
        media.show(entry, feedTitle: feedTitle)
        showings += 1
        let showing = showings
        fullArticle.entryShown(entry)
        Task.detached(priority: .userInitiated) { [weak self] in
            let article = entry.articleHTML()
            let body = article + MediaPanel.imagesHTML(for: entry.enclosures, body: article)
            await MainActor.run {
                guard let self, self.life.isAlive, self.showings == showing, !self.fullArticle.showsArticle(of: entry.id) else { return }
                self.present(body)
            }
        }
    }

    /// Loads the page of the entry shown with its sanitized `body`.
    func present(_ body: String) {
        guard let entry else { return }
        let look = look
        bodyHTML = body
        pageLook = look
        pageHTML = ArticlePage.html(for: entry, feedTitle: feedTitle, body: body, look: look)
        updateImagesBar()
        load()
    }

    /// Empties the pane, as when the selection goes away.
    func clear() {
        showings += 1
        fullArticle.cleared()
        entry = nil
        bodyHTML = nil
        pageHTML = nil
        pageLook = nil
        isLoaded = false
        media.removeAll()
        loadsImagesOnce = false
        updateImagesBar()
        state = .empty
        showEmptyPage()
    }

    /// With no entry shown: nothing while nothing is subscribed, else the welcome once offered, else "No Entry Selected".
    private func showEmptyPage() {
        gtk_stack_set_visible_child_name(cast(stack), !hasFeeds ? "nothing" : welcome == nil ? "empty" : "welcome")
    }

    /// Shows `page` while no entry is selected, in place of "No Entry Selected".
    func offer(_ page: FirstRunWelcome) {
        welcome = page
        gtk_stack_add_named(cast(stack), page.widget, "welcome")
        if state == .empty { showEmptyPage() }
    }

    /// Once an entry was read the welcome has done its work: the pane, empty again (a search, an
    /// empty Starred), asks for an entry as in later windows instead of greeting anew.
    private func retireWelcome() {
        guard let welcome else { return }
        self.welcome = nil
        gtk_stack_remove(cast(stack), welcome.widget)
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
        // Without WebKitGTK the pane says the view stopped, as when its web process ends.
        guard let webKit = WebKit.shared, let webView else { return webProcessTerminated() }
        gtk_stack_set_visible_child_name(cast(stack), "article")
        if !hasShownPage { showLoading(true) }
        webKit.webViewLoadHTML(webView, pageHTML, Self.pageAddress)
    }

    /// The spinner in the page's place while a blank web view starts, or the web view.
    private func showLoading(_ loading: Bool) {
        gtk_stack_set_visible_child_name(cast(pageStack), loading ? "loading" : "page")
        if loading { gtk_spinner_start(cast(loadingSpinner)) } else { gtk_spinner_stop(cast(loadingSpinner)) }
    }

    /// The page has its content: the web view takes the spinner's place.
    private func showPage() {
        guard state == .article else { return }
        hasShownPage = true
        showLoading(false)
    }

    /// Whether the spinner shows in the page's place.
    var isShowingLoading: Bool {
        state == .article && String(cString: gtk_stack_get_visible_child_name(cast(pageStack))) == "loading"
    }

    /// Decides a navigation request: only our own page loads; a clicked link opens outside.
    nonisolated static func navigation(to address: String, isLinkClick: Bool, isOwnLoad: Bool) -> Navigation {
        if isOwnLoad, address == pageAddress { return .load }
        guard isLinkClick, let url = URL(string: address), Reading.opensInBrowser(url) else { return .refuse }
        return .openExternally(url)
    }

    private func decide(_ navigation: Navigation) {
        if case let .openExternally(url) = navigation { onOpenLink?(url) }
    }

    private func webProcessTerminated() {
        isLoaded = false
        // A new web process starts blank, as the first did.
        hasShownPage = false
        state = .crashed
        gtk_stack_set_visible_child_name(cast(stack), "crashed")
    }

    private func loadFinished() {
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

    /// No page scripts, plugins or storage; images load as far as the page's own policy lets
    /// them. JavaScript itself stays on only for the app's own scripts, in an isolated world.
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
