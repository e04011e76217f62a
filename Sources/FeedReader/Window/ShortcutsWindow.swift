import CGtk
import RefreshGtk

/// The keyboard shortcuts window (Ctrl+?): every shortcut of the reader, in groups.
@MainActor
enum ShortcutsWindow {
    private struct Group {
        var title: String
        var shortcuts: [(keys: String, title: String)]
    }

    /// Opens the window over `parent`; returns it.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        let builder = gtk_builder_new_from_string(xml, -1)!
        defer { g_object_unref(cast(builder)) }
        guard let object = gtk_builder_get_object(builder, "window") else { return nil }
        let window = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_present(cast(window))
        return window
    }

    private static var groups: [Group] {
        let rtl = gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL
        return [
            Group(title: tr("Entries"), shortcuts: [
                ("j", tr("Next entry")), ("k", tr("Previous entry")),
                ("space", tr("Scroll the article, then the next unread entry")),
                ("o", tr("Open in Browser")),
                // TRANSLATORS: Enter on an entry; in a narrow window it shows the article, and Enter there opens the browser.
                ("Return", tr("Open in Browser (in a narrow window: show the article, then open it)")), ("m", tr("Mark as read or unread")), ("s", tr("Star or unstar")),
                ("<Shift>F10", tr("Entry menu")),
            ]),
            Group(title: tr("Feeds"), shortcuts: [
                ("<Shift>j <Control>j", tr("Next feed")), ("<Shift>k <Control>k", tr("Previous feed")),
                ("r F5 <Control>r", tr("Refresh")), ("<Control>n", tr("Add Feed")), ("<Shift><Control>n", tr("New Folder")),
                // The arrow pointing into the folder's row opens it: right, or left in a right-to-left language.
                (rtl ? "Left plus" : "Right plus", tr("Expand folder")), (rtl ? "Right minus" : "Left minus", tr("Collapse folder")),
                ("<Control>1", tr("All")), ("<Control>2", tr("Unread")), ("<Control>3", tr("Starred")),
                ("<Control>f", tr("Search")),
            ]),
            Group(title: tr("General"), shortcuts: [
                ("<Control>comma", tr("Preferences")), ("<Control>question", tr("Keyboard Shortcuts")),
                // TRANSLATORS: Alt+Left in a narrow window: from the article to the list, from the list to the feeds.
                (gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL ? "<Alt>Right" : "<Alt>Left", tr("Back to the previous pane")),
                ("<Control>w", tr("Close the window")), ("<Control>q", tr("Quit")),
            ]),
        ]
    }

    /// GtkBuilder XML: GtkShortcutsWindow's sections and groups cannot be built through calls.
    private static var xml: String {
        let body = groups.map { group in
            let shortcuts = group.shortcuts.map { shortcut in
                "<child><object class='GtkShortcutsShortcut'>"
                    + "<property name='accelerator'>\(Markup.escaped(shortcut.keys))</property>"
                    + "<property name='title'>\(Markup.escaped(shortcut.title))</property></object></child>"
            }.joined()
            return "<child><object class='GtkShortcutsGroup'><property name='title'>\(Markup.escaped(group.title))</property>"
                + shortcuts + "</object></child>"
        }.joined()
        return """
            <interface><object class="GtkShortcutsWindow" id="window"><property name="modal">1</property>
            <child><object class="GtkShortcutsSection"><property name="section-name">reader</property>\(body)</object></child>
            </object></interface>
            """
    }
}
