import CGtk
import Foundation
import RefreshGtk

/// The text under a dialog's fields: its hint, or in the hint's place what is wrong, in a place
/// of a steady height, so the dialog keeps its size as messages come and go (a dialog that grows
/// when an error appears and shrinks when it goes looks broken). A message longer than the place
/// scrolls inside it rather than growing the dialog.
@MainActor
struct DialogMessage {
    /// How many lines of text the place holds: every message of Add Feed and Add Account fits
    /// in all the reader's languages (`DialogMessageTests`).
    static let lines = 3

    let label: UnsafeMutablePointer<GtkWidget>
    /// The hint, shown when there is nothing to say.
    private let hint: () -> String

    /// Keeps `label`, inside the scrolled window `place`, `lines` of its text tall; `hint` is shown when there is nothing to say.
    init(label: UnsafeMutablePointer<GtkWidget>, place: UnsafeMutablePointer<GtkWidget>, hint: @escaping () -> String) {
        self.label = label
        self.hint = hint
        let height = Self.height(of: Self.lines, linesOf: label)
        gtk_scrolled_window_set_min_content_height(cast(place), height)
        gtk_scrolled_window_set_max_content_height(cast(place), height)
        show(nil)
    }

    /// What the place says now.
    var text: String { String(cString: gtk_label_get_text(cast(label))) }

    /// Shows `message` in the hint's place, else the hint; a problem in the error colour.
    func show(_ message: String?, isProblem: Bool = false) {
        Self.setText(message ?? hint(), keepingAddressesWhole: label)
        gtk_label_set_selectable(cast(label), (message != nil).gboolean)
        if message == nil { gtk_widget_add_css_class(label, "dim-label") } else { gtk_widget_remove_css_class(label, "dim-label") }
        if isProblem { gtk_widget_add_css_class(label, "error") } else { gtk_widget_remove_css_class(label, "error") }
    }

    /// The height of `count` lines of `label`'s text, in its font.
    private static func height(of count: Int, linesOf label: UnsafeMutablePointer<GtkWidget>) -> Int32 {
        guard let layout = gtk_widget_create_pango_layout(label, Array(repeating: "X", count: count).joined(separator: "\n")) else { return -1 }
        defer { g_object_unref(cast(layout)) }
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return height
    }

    /// Web addresses in a text: http or https, then the characters an address is written with,
    /// without the full stop or comma of the sentence it ends.
    private static let address = /https?:\/\/[A-Za-z0-9\-._~:\/?#\[\]@!$&'()*+,;=%]*[A-Za-z0-9\-_~\/#=%]/

    /// Sets `text` on `label`, each web address in it on one line: the label wraps before an
    /// address, never inside it at a hyphen or a slash ("…/tt-" then "rss/"); and its end on one
    /// line, so the last line is never a word alone ("…its own address will" then "do.").
    static func setText(_ text: String, keepingAddressesWhole label: UnsafeMutablePointer<GtkWidget>) {
        gtk_label_set_text(cast(label), text)
        let attributes = pango_attr_list_new()
        defer { pango_attr_list_unref(attributes) }
        let unbroken = text.matches(of: address).map(\.range) + [lastLine(of: text)].compactMap { $0 }
        for range in unbroken {
            guard let attribute = pango_attr_allow_breaks_new(0) else { continue }
            attribute.pointee.start_index = guint(text.utf8.distance(from: text.startIndex, to: range.lowerBound))
            attribute.pointee.end_index = guint(text.utf8.distance(from: text.startIndex, to: range.upperBound))
            pango_attr_list_insert(attributes, attribute)
        }
        gtk_label_set_attributes(cast(label), attributes)
    }

    /// The fewest characters a wrapped text's last line holds: about a fifth of the place.
    static let lastLineCharacters = 16
    /// The most that line is kept to, far less than a line, so it always fits.
    static let lastLineMaximum = 32

    /// The end of `text` kept on one line: its last words, from a space, making at least
    /// ``lastLineCharacters``; else, where the words are longer or not spaced (Japanese, Chinese),
    /// its last ``lastLineCharacters`` characters. Nil for a text that short.
    static func lastLine(of text: String) -> Range<String.Index>? {
        guard text.count > lastLineCharacters else { return nil }
        let shortest = text.index(text.endIndex, offsetBy: -lastLineCharacters)
        let longest = text.index(text.endIndex, offsetBy: -min(lastLineMaximum, text.count))
        let start = text[longest..<shortest].lastIndex(of: " ").map { text.index(after: $0) } ?? shortest
        return start..<text.endIndex
    }
}
