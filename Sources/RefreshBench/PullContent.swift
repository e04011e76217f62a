import CGtk
import Foundation
import RefreshGtk

/// What a pull moves in the bench: the kinds of content apps put in a scrolled window, built the
/// same for our window and the baseline's.
@MainActor
enum PullContent: String, CaseIterable {
    /// A GtkListView of 10,000 rows: virtualized, only the visible rows are laid out.
    case listView = "listview"
    /// A GtkListBox of 2,000 rows laid out as the reader's: every row is a widget.
    case listBox = "listbox"
    /// A GtkTextView holding 1 MB of wrapped text.
    case textView = "textview"

    static let listViewRows = 10_000
    static let listBoxRows = 2_000
    static let textBytes = 1_000_000

    /// How the table names it.
    var title: String {
        switch self {
        case .listView: "\(Self.listViewRows.formatted())-row GtkListView"
        case .listBox: "\(Self.listBoxRows.formatted())-row GtkListBox"
        case .textView: "GtkTextView of \(Self.textBytes / 1_000_000) MB"
        }
    }

    /// A new scrolled window holding the content, expanding both ways.
    func makeScrolledWindow() -> OpaquePointer {
        let scrolled = gtk_scrolled_window_new()!
        switch self {
        case .listView: gtk_scrolled_window_set_child(cast(scrolled), Self.listView())
        case .listBox: gtk_scrolled_window_set_child(cast(scrolled), Self.listBox())
        case .textView: gtk_scrolled_window_set_child(cast(scrolled), Self.textView())
        }
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_widget_set_hexpand(scrolled, 1)
        return cast(scrolled)
    }

    /// The title of row `index`, as an entry's.
    private static func rowTitle(_ index: Int) -> String {
        "Entry \(index + 1): what happened in the project this week"
    }

    /// A row as the reader's: a title over a dimmed line, in a box with margins.
    private static func rowBox() -> UnsafeMutablePointer<GtkWidget> {
        let title = gtk_label_new("")!
        gtk_label_set_xalign(cast(title), 0)
        gtk_widget_add_css_class(title, "heading")
        let meta = gtk_label_new("Bench Feed · Today 14:02")!
        gtk_label_set_xalign(cast(meta), 0)
        gtk_widget_add_css_class(meta, "dim-label")
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 3)!
        gtk_box_append(cast(box), title)
        gtk_box_append(cast(box), meta)
        gtk_widget_set_margin_start(box, 14)
        gtk_widget_set_margin_end(box, 14)
        gtk_widget_set_margin_top(box, 10)
        gtk_widget_set_margin_bottom(box, 10)
        return box
    }

    private static func listView() -> UnsafeMutablePointer<GtkWidget> {
        let strings = gtk_string_list_new(nil)!
        for index in 0..<listViewRows { gtk_string_list_append(strings, rowTitle(index)) }
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectObject(cast(factory), "setup") { item in
            gtk_list_item_set_child(cast(item), rowBox())
        }
        Signal.connectObject(cast(factory), "bind") { item in
            guard let object = gtk_list_item_get_item(cast(item)), let box = gtk_list_item_get_child(cast(item)),
                  let title = gtk_widget_get_first_child(box) else { return }
            gtk_label_set_text(cast(title), gtk_string_object_get_string(cast(object)))
        }
        let listView = gtk_list_view_new(cast(gtk_no_selection_new(cast(strings))), factory)!
        gtk_list_view_set_show_separators(cast(listView), 1)
        return listView
    }

    private static func listBox() -> UnsafeMutablePointer<GtkWidget> {
        let listBox = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(cast(listBox), GTK_SELECTION_NONE)
        gtk_list_box_set_show_separators(cast(listBox), 1)
        for index in 0..<listBoxRows {
            let box = rowBox()
            gtk_label_set_text(cast(gtk_widget_get_first_child(box)), rowTitle(index))
            gtk_list_box_append(cast(listBox), box)
        }
        return listBox
    }

    private static func textView() -> UnsafeMutablePointer<GtkWidget> {
        let words = ["pull", "refresh", "the", "frame", "and", "layout", "of", "a", "scrolled", "window", "text",
                     "with", "paragraphs", "wrapped", "to", "its", "width"]
        var text = ""
        text.reserveCapacity(textBytes + 200)
        var paragraph = 0
        while text.utf8.count < textBytes {
            paragraph += 1
            text += "Paragraph \(paragraph)."
            for word in 0..<(60 + paragraph % 40) { text += " " + words[(paragraph * 7 + word * 3) % words.count] }
            text += "\n\n"
        }
        let view = gtk_text_view_new()!
        gtk_text_view_set_wrap_mode(cast(view), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_editable(cast(view), 0)
        gtk_text_view_set_left_margin(cast(view), 14)
        gtk_text_view_set_right_margin(cast(view), 14)
        gtk_text_buffer_set_text(gtk_text_view_get_buffer(cast(view)), text, Int32(text.utf8.count))
        return view
    }
}
