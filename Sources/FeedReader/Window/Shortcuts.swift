import CGtk
import RefreshGtk

/// Every keyboard shortcut of the reader, listed once: the application's accelerators, the
/// single-key shortcuts and the keyboard shortcuts window (the help overlay, Ctrl+?) all come
/// from ``table``.
@MainActor
enum Shortcuts {
    /// A shortcut: its keys (GTK accelerators, space-separated), what it does in the user's
    /// language, and the action it activates, or nil where a widget handles the keys itself.
    struct Shortcut {
        var keys: String
        var title: String
        var action: String?
    }

    struct Group {
        var title: String
        var shortcuts: [Shortcut]
    }

    /// The shortcuts in the groups the shortcuts window shows, General first, in the current
    /// language and text direction.
    static var table: [Group] {
        let rtl = gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL
        return [
            Group(title: tr("General"), shortcuts: [
                Shortcut(keys: "<Control>question", title: tr("Keyboard Shortcuts"), action: "win.show-help-overlay"),
                Shortcut(keys: "<Control>comma", title: tr("Preferences"), action: "win.preferences"),
                // TRANSLATORS: Alt+Left where panes are folded: from the article to the list, from the list to the feeds.
                Shortcut(keys: rtl ? "<Alt>Right" : "<Alt>Left", title: tr("Back to the previous pane"), action: "win.back"),
                Shortcut(keys: "<Control>w", title: tr("Close the window"), action: "window.close"),
                Shortcut(keys: "<Control>q", title: tr("Quit"), action: "app.quit"),
            ]),
            Group(title: tr("Feeds"), shortcuts: [
                Shortcut(keys: "r F5 <Control>r", title: tr("Refresh"), action: "win.refresh"),
                Shortcut(keys: "<Control>n", title: tr("Add Feed"), action: "win.add-feed"),
                Shortcut(keys: "<Shift><Control>n", title: tr("New Folder"), action: "win.new-folder"),
                Shortcut(keys: "<Shift>j <Control>j", title: tr("Next feed"), action: "win.next-feed"),
                Shortcut(keys: "<Shift>k <Control>k", title: tr("Previous feed"), action: "win.previous-feed"),
                // The arrow pointing into the folder's row opens it: right, or left in a right-to-left language.
                Shortcut(keys: rtl ? "Left plus" : "Right plus", title: tr("Expand folder"), action: nil),
                Shortcut(keys: rtl ? "Right minus" : "Left minus", title: tr("Collapse folder"), action: nil),
            ]),
            Group(title: tr("Entries"), shortcuts: [
                Shortcut(keys: "j", title: tr("Next entry"), action: "win.next-entry"),
                Shortcut(keys: "k", title: tr("Previous entry"), action: "win.previous-entry"),
                Shortcut(keys: "space", title: tr("Scroll the article, then the next unread entry"), action: "win.page-or-next-unread"),
                Shortcut(keys: "o", title: tr("Open in Browser"), action: "win.open-in-browser"),
                Shortcut(keys: "f", title: tr("Show the full article or the feed’s text"), action: "win.toggle-full-article"),
                // TRANSLATORS: Enter on an entry: where the list shows alone, it shows the article first.
                Shortcut(keys: "Return", title: tr("Open the entry"), action: nil),
                Shortcut(keys: "m", title: tr("Mark as read or unread"), action: "win.toggle-read"),
                Shortcut(keys: "s", title: tr("Star or unstar"), action: "win.toggle-star"),
                Shortcut(keys: "<Control>1", title: tr("Show all entries"), action: "win.show-all"),
                Shortcut(keys: "<Control>2", title: tr("Show only unread entries"), action: "win.show-unread"),
                Shortcut(keys: "<Control>f", title: tr("Search"), action: "win.search"),
                Shortcut(keys: "<Shift>F10 Menu", title: tr("Entry menu"), action: "win.entry-menu"),
            ]),
            Group(title: tr("Article"), shortcuts: [
                Shortcut(keys: "<Control>plus <Control>equal", title: tr("Zoom in"), action: "win.zoom-in"),
                Shortcut(keys: "<Control>minus", title: tr("Zoom out"), action: "win.zoom-out"),
                Shortcut(keys: "<Control>0", title: tr("Reset the zoom"), action: "win.zoom-reset"),
            ]),
        ]
    }

    /// Keys that GTK treats as accelerators, per action, and the single keys (letters, Space) that
    /// act only while no text field has the focus.
    static func split(_ groups: [Group]) -> (accelerators: [(action: String, keys: [String])], singleKeys: [KeyShortcuts.Key]) {
        var accelerators: [(action: String, keys: [String])] = []
        var singleKeys: [KeyShortcuts.Key] = []
        for shortcut in groups.flatMap(\.shortcuts) {
            guard let action = shortcut.action else { continue }
            var keys: [String] = []
            for accelerator in shortcut.keys.split(separator: " ").map(String.init) {
                var keyval: guint = 0
                var modifiers = GdkModifierType(0)
                guard gtk_accelerator_parse(accelerator, &keyval, &modifiers) != 0 else { continue }
                let typed = gdk_keyval_to_unicode(keyval) != 0
                if typed, modifiers.rawValue & ~GDK_SHIFT_MASK.rawValue == 0 {
                    // Shift+j arrives as J.
                    let arriving = modifiers.rawValue & GDK_SHIFT_MASK.rawValue != 0 ? gdk_keyval_to_upper(keyval) : keyval
                    singleKeys.append(KeyShortcuts.Key(keyval: arriving, action: action))
                } else {
                    keys.append(accelerator)
                }
            }
            if !keys.isEmpty { accelerators.append((action, keys)) }
        }
        return (accelerators, singleKeys)
    }

    /// Gives `application` the table's accelerators.
    static func installAccelerators(in application: UnsafeMutablePointer<GtkApplication>) {
        for (action, keys) in split(table).accelerators {
            withCStringArray(keys) { gtk_application_set_accels_for_action(application, action, $0) }
        }
    }

    /// The keyboard shortcuts window of `table`, in the current language: one page, General first.
    static func makeWindow() -> UnsafeMutablePointer<GtkWidget> {
        let builder = gtk_builder_new_from_string(xml(table), -1)!
        defer { g_object_unref(cast(builder)) }
        // GTK keeps the window (a toplevel) after the builder goes; the main window that takes it
        // as its help overlay destroys it with itself.
        return UnsafeMutableRawPointer(gtk_builder_get_object(builder, "help_overlay")!).assumingMemoryBound(to: GtkWidget.self)
    }

    /// GtkBuilder XML: GtkShortcutsWindow's sections and groups cannot be built through calls in GTK 4.8.
    private static func xml(_ groups: [Group]) -> String {
        let rows = groups.reduce(0) { $0 + $1.shortcuts.count }
        let body = groups.map { group in
            let shortcuts = group.shortcuts.map { shortcut in
                "<child><object class='GtkShortcutsShortcut'>"
                    + "<property name='accelerator'>\(Markup.escaped(shortcut.keys))</property>"
                    + "<property name='title'>\(Markup.escaped(shortcut.title))</property></object></child>"
            }.joined()
            return "<child><object class='GtkShortcutsGroup'><property name='title'>\(Markup.escaped(group.title))</property>"
                + shortcuts + "</object></child>"
        }.joined()
        // Columns tall enough that every group fits on one page; a group's title takes a row too.
        return """
            <interface><object class="GtkShortcutsWindow" id="help_overlay"><property name="modal">1</property>
            <child><object class="GtkShortcutsSection"><property name="section-name">reader</property>
            <property name="max-height">\((rows + groups.count + 1) / 2 + 2)</property>\(body)</object></child>
            </object></interface>
            """
    }
}
