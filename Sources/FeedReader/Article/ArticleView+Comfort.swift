import CAdw
import CGtk
import Foundation
import RefreshGtk

/// Reading comfort: the article's zoom, font and column after the reader's preferences, the
/// app's dark and high-contrast styles, and remote images held back until asked for.
extension ArticleView {
    /// The look the next page loads with, from the preferences and the style manager.
    var look: ArticlePage.Look {
        let manager = adw_style_manager_get_default()
        return ArticlePage.Look(measure: preferences?.articleMeasure ?? .medium,
                                isDark: adw_style_manager_get_dark(manager) != 0,
                                isHighContrast: adw_style_manager_get_high_contrast(manager) != 0,
                                loadsRemoteImages: (preferences?.loadsRemoteImages ?? true) || loadsImagesOnce)
    }

    /// Applies changed preferences to the article shown: at once for the font, zoom, column and
    /// colours; loading the page again only when whether images may load changed.
    func applyPreferences() {
        applyFont()
        applyZoom()
        guard let bodyHTML, let pageLook else { return }
        if pageLook.loadsRemoteImages != look.loadsRemoteImages {
            present(bodyHTML)
        } else {
            applyLook()
        }
    }

    /// Sets the page's text in the chosen typeface and size: the desktop's interface font (the
    /// one GTK draws the window's own text with) unless another was chosen.
    func applyFont() {
        guard let webView = madeWebView, let webKit = WebKit.shared, let settings = webKit.webViewGetSettings(webView) else { return }
        let desktop = DesktopFont.current(for: webView)
        let family = preferences?.articleFont.genericFamily.flatMap { DesktopFont.installedFamily(for: $0, in: webView) }
        let points = preferences?.articleFontPoints ?? 0
        webKit.setDefaultFontFamily(settings, family ?? desktop.family)
        webKit.setSansSerifFontFamily(settings, desktop.family)
        webKit.setDefaultFontSize(settings, points > 0 ? DesktopFont.pixels(points: Double(points)) : desktop.pixels)
    }

    /// The article's zoom level, 1 for none.
    var zoom: Double { preferences?.articleZoom ?? 1 }

    /// Zooms in one step (Ctrl+plus).
    func zoomIn() { setZoom(ArticleZoom.larger(than: zoom)) }

    /// Zooms out one step (Ctrl+minus).
    func zoomOut() { setZoom(ArticleZoom.smaller(than: zoom)) }

    /// Back to the text's own size (Ctrl+0).
    func resetZoom() { setZoom(1) }

    private func setZoom(_ level: Double) {
        preferences?.articleZoom = level
        applyZoom()
    }

    /// Gives the web view the kept zoom level.
    func applyZoom() {
        guard let webView = madeWebView, let webKit = WebKit.shared else { return }
        if abs(webKit.webViewGetZoomLevel(webView) - zoom) > 0.001 { webKit.webViewSetZoomLevel(webView, zoom) }
    }

    /// Ctrl with the wheel or a touchpad's scrolling zooms, as in GNOME's browser and text
    /// editor. The controller sits on the article's column and runs before the web view, which
    /// would scroll the page instead; touchpad deltas count once a whole step has accumulated.
    func addZoomByScrolling() {
        let controller = gtk_event_controller_scroll_new(GtkEventControllerScrollFlags(
            GTK_EVENT_CONTROLLER_SCROLL_VERTICAL.rawValue | GTK_EVENT_CONTROLLER_SCROLL_DISCRETE.rawValue))!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        Signal.connect(cast(controller), "scroll") { [weak self] (_: Double, dy: Double) -> Bool in
            let state = gtk_event_controller_get_current_event_state(controller)
            guard let self, state.rawValue & GDK_CONTROL_MASK.rawValue != 0, dy != 0 else { return false }
            if dy < 0 { self.zoomIn() } else { self.zoomOut() }
            return true
        }
        gtk_widget_add_controller(articleBox, controller)
    }

    /// Sets the page's column and colours after the preferences and the style, without loading it again.
    func applyLook() {
        guard pageHTML != nil, let webView = madeWebView, let webKit = WebKit.shared else { return }
        // In a world of our own, like the paging script: the page's scripts are off and never see it.
        webKit.webViewEvaluateJavaScript(webView, look.script, -1, "feed-reader", nil, nil, nil, nil)
    }

    /// Shows the bar offering to load the remote images the preferences hold back, where the
    /// article has some.
    func updateImagesBar() {
        let heldBack = bodyHTML.map(ArticlePage.hasRemoteImages) == true && !look.loadsRemoteImages
        gtk_widget_set_visible(imagesBar, heldBack.gboolean)
    }

    /// Loads the article shown again with its remote images, this once: the next entry holds
    /// them back again.
    func loadImagesOnce() {
        guard let bodyHTML else { return }
        loadsImagesOnce = true
        present(bodyHTML)
    }
}

extension DesktopFont {
    /// The installed family fontconfig gives for `generic` ("serif", "monospace"), as Pango draws
    /// it in `widget`: WebKit is given a family it has, not a generic name it may map otherwise.
    @MainActor static func installedFamily(for generic: String, in widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        let description = pango_font_description_from_string(generic)
        defer { pango_font_description_free(description) }
        return drawnFamily(of: description, for: widget)
    }

    /// CSS pixels at 96 dpi for a size in points.
    static func pixels(points: Double) -> UInt32 {
        UInt32(max(9, points * 96 / 72).rounded())
    }
}
