import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The article pane's full article: its button over the article (a spinner while the page loads),
/// the article kept with the entry, the feeds that always show it, and the notice that says
/// why a page gave none while the feed's own text stays.
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

    /// The button floating at the article's lower end corner: shows the full article, or the
    /// feed's text again. Not in the header bar, whose buttons already fill a phone's width.
    let button: UnsafeMutablePointer<GtkWidget>
    /// Holds the article's web view with the button over it.
    let overlay: UnsafeMutablePointer<GtkWidget>
    /// The notice above the article when the full article could not be shown.
    let notice: UnsafeMutablePointer<GtkWidget>
    private let buttonContent: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let noticeLabel: UnsafeMutablePointer<GtkWidget>
    private let noticeClose: UnsafeMutablePointer<GtkWidget>
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
        let icon = gtk_image_new_from_icon_name("format-justify-fill-symbolic")!
        spinner = gtk_spinner_new()!
        buttonContent = gtk_stack_new()!
        gtk_stack_add_named(cast(buttonContent), icon, "icon")
        gtk_stack_add_named(cast(buttonContent), spinner, "spinner")
        button = gtk_button_new()!
        gtk_button_set_child(cast(button), buttonContent)
        for style in ["osd", "circular"] { gtk_widget_add_css_class(button, style) }
        gtk_widget_set_halign(button, GTK_ALIGN_END)
        gtk_widget_set_valign(button, GTK_ALIGN_END)
        Widgets.setMargins(button, horizontal: 18, vertical: 18)
        overlay = gtk_overlay_new()!
        life = WidgetLife(overlay)
        gtk_widget_set_vexpand(overlay, 1)
        gtk_overlay_add_overlay(cast(overlay), button)
        gtk_actionable_set_action_name(cast(button), "win.toggle-full-article")

        noticeLabel = Widgets.label("", xalign: 0)
        gtk_label_set_wrap(cast(noticeLabel), 1)
        gtk_widget_set_hexpand(noticeLabel, 1)
        noticeClose = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_widget_add_css_class(noticeClose, "flat")
        gtk_widget_set_valign(noticeClose, GTK_ALIGN_CENTER)
        let bar = Widgets.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [noticeLabel, noticeClose])
        gtk_widget_add_css_class(bar, "toolbar")
        gtk_widget_add_css_class(bar, "background")
        Widgets.setMargins(bar, horizontal: 12, vertical: 6)
        notice = gtk_revealer_new()!
        gtk_revealer_set_child(cast(notice), bar)
        Signal.connect(cast(noticeClose), "clicked") { [weak self] in self?.hideNotice() }
        retranslate()
        update()
    }

    /// Adds `win.toggle-full-article` and the feeds' `win.always-show-full-article` to `window`;
    /// `feedChanged` runs once a feed's setting is saved.
    func addActions(to window: UnsafeMutablePointer<GtkWidget>, feedChanged: @escaping @MainActor (Int64) -> Void) {
        Widgets.addAction(to: window, "toggle-full-article") { [weak self] _ in self?.toggle() }
        FullArticleSetting.addAction(to: window, library: { [weak self] in self?.library }, changed: { [weak self] feedID, always in
            feedChanged(feedID)
            if always, let self = self?.live, self.entry?.feedID == feedID, self.state == .feedText { self.showFullArticle() }
        }, failed: { [weak self] in self?.live?.showNotice(tr("The setting could not be saved.")) })
    }

    /// The texts in the current language.
    func retranslate() {
        Widgets.name(noticeClose, tr("Dismiss"))
        update()
        if case let .failed(error) = state { gtk_label_set_text(cast(noticeLabel), error.sentence) }
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

    /// The button's icon or spinner, its name, and whether it can act.
    private func update() {
        let loading = state == .loading
        gtk_stack_set_visible_child_name(cast(buttonContent), loading ? "spinner" : "icon")
        if loading { gtk_spinner_start(cast(spinner)) } else { gtk_spinner_stop(cast(spinner)) }
        let name = switch state {
        case .fullArticle: tr("Show Feed Text")
        case .loading: tr("Loading the Full Article…")
        case .feedText, .failed: tr("Show Full Article")
        }
        Widgets.name(button, name)
        cgtk_accessible_set_busy(cast(button), loading.gboolean)
        gtk_widget_set_sensitive(button, (entry?.link != nil && !loading).gboolean)
    }
}
