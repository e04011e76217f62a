import AppSignals
import CAdw
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The article pane's full article: its toggle in the article's header bar (pressed while the
/// full article shows, a spinner while the page loads), the article kept with the entry, the
/// feeds that always show it, and the notice that says why a page gave none while the feed's own
/// text stays. Its widgets come from article/full-article.ui, built again on a language switch.
@MainActor
final class FullArticleControl {
    /// What the pane shows of the entry.
    enum State: Equatable {
        /// The feed's own text.
        case feedText
        /// The feed's text while the page is fetched and its article extracted.
        case loading
        /// The article extracted from the entry's page.
        case fullArticle
        /// The feed's text, with the notice saying why the page gave no article.
        case failed(ArticleExtractionError)
    }

    static let file = "article/full-article.ui"
    static let actionName = "toggle-full-article"

    /// Holds the toggle in the article's header bar; its child is built again on a language switch.
    let slot: UnsafeMutablePointer<GtkWidget>
    /// The notice above the article when the full article could not be shown.
    let notice: UnsafeMutablePointer<GtkWidget>
    /// Shows the full article, or the feed's text again: `win.toggle-full-article`, whose
    /// boolean state (the full article shown or loading) the toggle shows as pressed.
    private(set) var button: UnsafeMutablePointer<GtkWidget>
    private var buttonFace: UnsafeMutablePointer<GtkWidget>
    private var spinner: UnsafeMutablePointer<GtkWidget>
    private var noticeLabel: UnsafeMutablePointer<GtkWidget>
    /// The window action the toggle and the F key activate.
    private let action: OpaquePointer
    /// Whether the control's widgets still exist: the window may close while a page is fetched.
    private let life: WidgetLife
    /// The control while its widgets exist, nil once the window destroyed them.
    private var live: FullArticleControl? { life.isAlive ? self : nil }

    private(set) var state = State.feedText
    /// The entry shown.
    private var entry: StoredEntry?
    /// The full article of the entry shown, once stored or extracted.
    private(set) var article: FullArticle?
    /// Counts the entries shown, so an answer for an entry no longer shown is only stored.
    private var showings = 0

    /// Where articles are kept and pages fetched; set by the window.
    var library: FeedLibrary?
    /// Loads a sanitized body into the pane (the article view's own `present`).
    var present: ((String) -> Void)?

    init() {
        action = g_simple_action_new_stateful(Self.actionName, nil, g_variant_new_boolean(0))!
        slot = adw_bin_new()!
        notice = gtk_revealer_new()!
        life = WidgetLife(notice)
        let close: UnsafeMutablePointer<GtkWidget>
        (button, buttonFace, spinner, noticeLabel, close) = Self.build(into: slot, notice: notice)
        Signal.connectObjectOrNil(cast(action), "activate") { [weak self] _ in self?.toggle() }
        connectClose(close)
        update()
    }

    isolated deinit {
        g_object_unref(cast(action))
    }

    /// Builds the file's toggle into `slot` and its notice's content into `notice`.
    private static func build(into slot: UnsafeMutablePointer<GtkWidget>, notice: UnsafeMutablePointer<GtkWidget>)
        -> (toggle: UnsafeMutablePointer<GtkWidget>, face: UnsafeMutablePointer<GtkWidget>, spinner: UnsafeMutablePointer<GtkWidget>,
            label: UnsafeMutablePointer<GtkWidget>, close: UnsafeMutablePointer<GtkWidget>) {
        let file = BuilderFile(file)
        let toggle = file.widget("toggle")
        adw_bin_set_child(cast(slot), toggle)
        if let key = Shortcuts.table.first(where: { $0.action == "win." + actionName })?.keys.split(separator: " ").first {
            var keyval: guint = 0
            var modifiers = GdkModifierType(rawValue: 0)
            if gtk_accelerator_parse(String(key), &keyval, &modifiers) != 0, let label = gtk_accelerator_get_label(keyval, modifiers) {
                defer { g_free(label) }
                let name = gtk_widget_get_tooltip_text(toggle).map { String(cString: $0) } ?? ""
                gtk_widget_set_tooltip_text(toggle, "\(name) (\(String(cString: label)))")
            }
        }
        let box = file.widget("notice_box")
        g_object_ref(cast(box))
        gtk_revealer_set_child(cast(file.widget("notice")), nil)
        gtk_revealer_set_child(cast(notice), box)
        g_object_unref(cast(box))
        return (toggle, file.widget("toggle_face"), file.widget("spinner"), file.widget("notice_label"), file.widget("notice_close"))
    }

    private func connectClose(_ close: UnsafeMutablePointer<GtkWidget>) {
        Signal.connect(cast(close), "clicked") { [weak self] in self?.hideNotice() }
    }

    /// Builds the toggle and the notice again from their file, in the language now chosen,
    /// keeping what they show.
    func rebuild() {
        let text = noticeText
        let close: UnsafeMutablePointer<GtkWidget>
        (button, buttonFace, spinner, noticeLabel, close) = Self.build(into: slot, notice: notice)
        connectClose(close)
        // A failure's sentence is made again in the new language; another notice keeps its words.
        if case let .failed(error) = state {
            gtk_label_set_text(cast(noticeLabel), error.sentence)
        } else if let text {
            gtk_label_set_text(cast(noticeLabel), text)
        }
        update()
    }

    /// Adds `win.toggle-full-article` and the feeds' `win.always-show-full-article` to `window`;
    /// `feedChanged` runs once a feed's setting is saved.
    func addActions(to window: UnsafeMutablePointer<GtkWidget>, feedChanged: @escaping @MainActor (Int64) -> Void) {
        g_action_map_add_action(cast(window), cast(action))
        FullArticleSetting.addAction(to: window, library: { [weak self] in self?.library }, changed: { [weak self] feedID, always in
            feedChanged(feedID)
            if always, let self = self?.live, self.entry?.feedID == feedID, self.state == .feedText { self.showFullArticle() }
        }, failed: { [weak self] in self?.live?.showNotice(tr("The setting could not be saved.")) })
    }

    /// Whether the pane should keep the article it shows rather than the feed's text of `entryID`.
    func showsArticle(of entryID: Int64) -> Bool {
        entry?.id == entryID && state == .fullArticle
    }

    /// A new entry is shown: its kept article comes at once (offline too), and for a feed that
    /// always shows the full article, the page is fetched when none is kept.
    func entryShown(_ shown: StoredEntry) {
        showings += 1
        let showing = showings
        entry = shown
        article = nil
        state = .feedText
        hideNotice()
        update()
        guard let store = library?.store else { return }
        Task { @MainActor [weak self] in
            let kept = try? await store.fullArticle(forEntry: shown.id)
            let always = (try? await store.feed(id: shown.feedID))?.alwaysShowsFullArticle ?? false
            guard let self = self?.live, self.showings == showing else { return }
            if let kept {
                self.show(kept)
            } else if always, shown.link != nil {
                self.showFullArticle()
            }
        }
    }

    /// The selection went away.
    func cleared() {
        showings += 1
        entry = nil
        article = nil
        state = .feedText
        hideNotice()
        update()
    }

    /// The button and its shortcut: the full article, or back to the feed's text.
    func toggle() {
        switch state {
        case .fullArticle: showFeedText()
        case .loading: break
        case .feedText, .failed: showFullArticle()
        }
    }

    /// Shows the kept article, or fetches the page and extracts it, keeping the result.
    func showFullArticle() {
        guard let entry, state != .loading else { return }
        if let article { return show(article) }
        guard let link = entry.link, let library else { return }
        state = .loading
        hideNotice()
        update()
        let showing = showings
        Task { @MainActor [weak self] in
            do throws(ArticleExtractionError) {
                // A link names a local file only in a feed that is one itself: a web feed or a sync
                // server could otherwise have any file of the disk shown and stored.
                let local = (try? await library.store.feed(id: entry.feedID))?.linksMayNameFiles ?? false
                let extracted = try await ArticleExtraction.extract(from: link, readsFiles: local, fetcher: library.fetcher)
                // Kept even when another entry is shown by now: it was fetched for this one.
                try? await library.store.saveFullArticle(extracted, forEntry: entry.id)
                guard let self = self?.live, self.showings == showing else { return }
                self.show(extracted)
            } catch {
                guard let self = self?.live, self.showings == showing else { return }
                self.state = .failed(error)
                self.update()
                self.showNotice(error.sentence)
            }
        }
    }

    private func show(_ found: FullArticle) {
        article = found
        state = .fullArticle
        hideNotice()
        update()
        present?(found.html)
    }

    private func showFeedText() {
        guard let entry else { return }
        state = .feedText
        update()
        let showing = showings
        Task.detached(priority: .userInitiated) { [weak self] in
            let body = entry.articleHTML()
            await MainActor.run {
                guard let self = self?.live, self.showings == showing, self.state != .fullArticle else { return }
                self.present?(body)
            }
        }
    }

    private func showNotice(_ text: String) {
        gtk_label_set_text(cast(noticeLabel), text)
        gtk_revealer_set_reveal_child(cast(notice), 1)
    }

    private func hideNotice() {
        gtk_revealer_set_reveal_child(cast(notice), 0)
    }

    /// Whether the notice is shown, and what it says.
    var noticeText: String? {
        gtk_revealer_get_reveal_child(cast(notice)) != 0 ? gtk_label_get_text(cast(noticeLabel)).map { String(cString: $0) } : nil
    }

    /// The toggle's state (pressed while the full article shows or loads), its icon or spinner,
    /// and whether it can act: only for an entry with a web page, and not while it loads.
    private func update() {
        let loading = state == .loading
        g_simple_action_set_state(cast(action), g_variant_new_boolean((state == .fullArticle || loading).gboolean))
        g_simple_action_set_enabled(cast(action), (entry?.link != nil && !loading).gboolean)
        gtk_stack_set_visible_child_name(cast(buttonFace), loading ? "spinner" : "icon")
        if loading { gtk_spinner_start(cast(spinner)) } else { gtk_spinner_stop(cast(spinner)) }
        cgtk_accessible_set_busy(cast(button), loading.gboolean)
    }
}
