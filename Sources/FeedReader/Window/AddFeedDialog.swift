import CGtk
import FeedCore
import RefreshGtk

/// Asks for a feed's address, fetches it once, and subscribes; errors stay in the dialog.
@MainActor
final class AddFeedDialog {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let entry: UnsafeMutablePointer<GtkWidget>
    private let message: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let addButton: UnsafeMutablePointer<GtkWidget>
    private let library: FeedLibrary
    private let onAdded: (StoredFeed) -> Void
    private var retainedSelf: AddFeedDialog?

    /// Shows the dialog over `parent`; `onAdded` gets the new subscription.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, library: FeedLibrary,
                        onAdded: @escaping (StoredFeed) -> Void) -> AddFeedDialog {
        let dialog = AddFeedDialog(parent: parent, library: library, onAdded: onAdded)
        dialog.retainedSelf = dialog
        gtk_window_present(cast(dialog.window))
        return dialog
    }

    private init(parent: UnsafeMutablePointer<GtkWidget>, library: FeedLibrary, onAdded: @escaping (StoredFeed) -> Void) {
        self.library = library
        self.onAdded = onAdded
        window = gtk_window_new()
        gtk_window_set_title(cast(window), tr("Add Feed"))
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_set_default_size(cast(window), 420, -1)
        gtk_window_set_destroy_with_parent(cast(window), 1)

        let bar = gtk_header_bar_new()!
        gtk_header_bar_set_show_title_buttons(cast(bar), 0)
        let cancel = gtk_button_new_with_mnemonic(tr("_Cancel"))!
        addButton = gtk_button_new_with_mnemonic(tr("_Add"))!
        gtk_widget_add_css_class(addButton, "suggested-action")
        gtk_header_bar_pack_start(cast(bar), cancel)
        gtk_header_bar_pack_end(cast(bar), addButton)
        gtk_window_set_titlebar(cast(window), bar)

        entry = gtk_entry_new()
        gtk_entry_set_placeholder_text(cast(entry), "https://example.org/feed.xml")
        gtk_entry_set_activates_default(cast(entry), 1)
        gtk_entry_set_input_purpose(cast(entry), GTK_INPUT_PURPOSE_URL)
        let prompt = Widgets.label(tr("Enter the address of an RSS, Atom or JSON feed."), classes: ["dim-label"])
        gtk_label_set_wrap(cast(prompt), 1)
        message = Widgets.label("", classes: ["error"])
        gtk_label_set_wrap(cast(message), 1)
        gtk_label_set_selectable(cast(message), 1)
        spinner = gtk_spinner_new()
        let content = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [prompt, entry, message, spinner])
        Widgets.setMargins(content, horizontal: 18, vertical: 18)
        gtk_window_set_child(cast(window), content)
        gtk_window_set_default_widget(cast(window), addButton)
        gtk_widget_set_sensitive(addButton, 0)

        Signal.connect(cast(cancel), "clicked") { [weak self] in self?.close() }
        Signal.connect(cast(addButton), "clicked") { [weak self] in self?.add() }
        Signal.connect(cast(entry), "changed") { [weak self] in self?.validate() }
        Signal.connect(cast(window), "destroy") { [weak self] in self?.retainedSelf = nil }
    }

    private var text: String { String(cString: gtk_editable_get_text(cast(entry))) }

    private func validate() {
        let valid = FeedLibrary.feedURL(from: text) != nil
        gtk_widget_set_sensitive(addButton, valid.gboolean)
        gtk_label_set_text(cast(message), "")
    }

    private func add() {
        let address = text
        guard FeedLibrary.feedURL(from: address) != nil else { return }
        setBusy(true)
        Task { @MainActor [weak self, library] in
            do {
                let feed = try await library.subscribe(to: address)
                self?.onAdded(feed)
                self?.close()
            } catch {
                guard let self else { return }
                self.setBusy(false)
                gtk_label_set_text(cast(self.message), String(describing: error))
            }
        }
    }

    private func setBusy(_ busy: Bool) {
        gtk_widget_set_sensitive(entry, (!busy).gboolean)
        gtk_widget_set_sensitive(addButton, (!busy).gboolean)
        gtk_spinner_set_spinning(cast(spinner), busy.gboolean)
        if busy { gtk_label_set_text(cast(message), "") }
    }

    private func close() { gtk_window_destroy(cast(window)) }
}
