import CGtk
import FeedCore
import Foundation

/// `feed-reader --extract FILE-OR-URL`: prints the page's readable article as sanitized HTML.
@MainActor
enum ExtractCommand {
    /// Prints the article (an `<h1>` with its title first, when it has one) on standard output
    /// and returns 0; otherwise prints the reason on standard error and returns 1 when the page
    /// has no article or cannot be read, 2 when WebKit cannot run here (no display, no WebKitGTK).
    static func run(_ target: String) async -> Int32 {
        // WebKit's view is a GTK widget: GTK needs a display even for a view never shown.
        guard gtk_init_check() != 0 else {
            return fail(tr("Extracting an article needs a graphical session (X11 or Wayland) for the web engine, and none was found: neither DISPLAY nor WAYLAND_DISPLAY names a display that could be opened."), status: 2)
        }
        let url = FeedRequest(location: target).url
        do {
            // The user named this address: a file is theirs to read.
            let article = try await ArticleExtraction.extract(from: url, readsFiles: true)
            let heading = article.title.map { "<h1>\(Markup.escaped($0))</h1>\n" } ?? ""
            FileHandle.standardOutput.write(Data((heading + article.html + "\n").utf8))
            return 0
        } catch {
            let status: Int32 = error == .webKitMissing || error == .resourcesMissing ? 2 : 1
            return fail(error.sentence + (error.technicalDetails.map { " (\($0))" } ?? ""), status: status)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data("feed-reader: \(message)\n".utf8))
        return status
    }
}
