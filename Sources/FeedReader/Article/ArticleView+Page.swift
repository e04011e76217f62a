import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The article's web page: a header with the entry's details above its sanitized body.
enum ArticlePage {
    /// What the page's root element carries for its style sheet, and whether it may load images.
    struct Look: Equatable {
        var measure = Preferences.Measure.medium
        var isDark = false
        var isHighContrast = false
        var loadsRemoteImages = true

        /// The root element's classes: `dark`, `high-contrast`.
        var classes: String {
            [isDark ? "dark" : nil, isHighContrast ? "high-contrast" : nil].compactMap { $0 }.joined(separator: " ")
        }

        /// Sets the root element's measure and classes on a page already shown, so a change takes
        /// effect without loading it again (and keeps its scroll position).
        var script: String {
            """
            (function () {
                var root = document.documentElement;
                root.setAttribute("data-measure", "\(measure.name)");
                root.className = "\(classes)";
                return true;
            })()
            """
        }
    }

    /// A complete page; `body` must already be sanitized, everything else is escaped here.
    ///
    /// Without remote images the page's Content-Security-Policy allows only images inside it
    /// (`data:`), so WebKit never sends the requests: nothing tells a tracker the entry was read.
    static func html(for entry: StoredEntry, feedTitle: String?, body: String, look: Look) -> String {
        let (title, details) = header(for: entry, feedTitle: feedTitle)
        let images = look.loadsRemoteImages ? "http: https: data:" : "data:"
        return """
            <!DOCTYPE html>
            <html dir="\(direction)" data-measure="\(look.measure.name)" class="\(look.classes)"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src \(images); style-src 'unsafe-inline'">
            <style>\(style)</style></head>
            <body><header><h1 dir="auto">\(Markup.escaped(title))</h1><p class="details" dir="auto">\(Markup.escaped(details))</p></header>
            <article dir="auto">\(body)</article></body></html>
            """
    }

    /// The header's title and details line (feed, author, date), in the current language.
    static func header(for entry: StoredEntry, feedTitle: String?) -> (title: String, details: String) {
        let title = entry.title?.isEmpty == false ? entry.title! : tr("Untitled")
        let details = [feedTitle, entry.author, EntryDateText.text(for: entry.sortDate)]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
        return (title, details)
    }

    /// The page's text direction: the app's.
    static var direction: String { gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL ? "rtl" : "ltr" }

    /// Writes the header of a page already shown in the current language and direction, so a
    /// language switch keeps the page where it was scrolled instead of loading it again.
    static func headerScript(for entry: StoredEntry, feedTitle: String?) -> String {
        let (title, details) = header(for: entry, feedTitle: feedTitle)
        // JSON's strings are JavaScript's: the texts arrive as they are, whatever they hold.
        let texts = (try? JSONEncoder().encode([title, details, direction])).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return """
            (function (texts) {
                if (texts.length !== 3) return false;
                document.querySelector("header h1").textContent = texts[0];
                document.querySelector("header .details").textContent = texts[1];
                document.documentElement.dir = texts[2];
                return true;
            })(\(texts))
            """
    }

    /// Whether the sanitized `body` shows an image from the web (the sanitizer keeps `src` as the
    /// only image source, quoted with double quotes).
    static func hasRemoteImages(_ body: String) -> Bool {
        body.range(of: #"<img\b[^>]*\ssrc="https?:"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// Light, dark and high-contrast colours after the app's style, the column as wide as the
    /// reader chose, images scaled to fit.
    static let style = """
        :root { color-scheme: light; }
        body { margin: 0 auto; padding: 12px 24px 32px; max-width: 46em; line-height: 1.55;
               color: #1e1e1e; background: #ffffff; overflow-wrap: break-word; }
        html[data-measure="narrow"] body { max-width: 34em; }
        html[data-measure="wide"] body { max-width: 64em; }
        h1 { font-size: 1.6em; line-height: 1.25; margin: 0.3em 0 0.2em; }
        .details { color: #5e5c64; margin: 0 0 1.5em; }
        img, video { max-width: 100%; height: auto; }
        pre { overflow-x: auto; padding: 10px 12px; border-radius: 6px; background: #f2f2f2; }
        code { font-family: monospace; font-size: 0.92em; }
        table { border-collapse: collapse; margin: 1em 0; }
        th, td { border: 1px solid #c0bfbc; padding: 4px 10px; text-align: start; }
        blockquote { margin: 1em 0; padding-inline-start: 1em; border-inline-start: 3px solid #c0bfbc; color: #5e5c64; }
        a { color: #1c71d8; }
        html.dark { color-scheme: dark; }
        html.dark body { color: #ffffff; background: #1e1e1e; }
        html.dark .details, html.dark blockquote { color: #c0bfbc; }
        html.dark pre { background: #303030; }
        html.dark th, html.dark td, html.dark blockquote { border-color: #5e5c64; }
        html.dark a { color: #78aeed; }
        html.high-contrast body { color: #000000; }
        html.high-contrast .details, html.high-contrast blockquote { color: #000000; }
        html.high-contrast th, html.high-contrast td, html.high-contrast blockquote, html.high-contrast pre {
            border-color: currentColor; }
        html.high-contrast pre { border: 1px solid; }
        html.high-contrast a { color: #0b4fa8; text-decoration: underline; }
        html.dark.high-contrast body { color: #ffffff; background: #000000; }
        html.dark.high-contrast .details, html.dark.high-contrast blockquote { color: #ffffff; }
        html.dark.high-contrast pre { background: #000000; }
        html.dark.high-contrast a { color: #99c1f1; }
        """
}
