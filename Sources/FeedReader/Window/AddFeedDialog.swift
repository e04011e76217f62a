import CGtk
import FeedCore
import RefreshGtk

/// Asks for a feed's address, or a web page's, fetches it once, and subscribes; a page that
/// offers several feeds lists them to choose from; errors stay in the dialog.
@MainActor
final class AddFeedDialog {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let entry: UnsafeMutablePointer<GtkWidget>
    private let message: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let addButton: UnsafeMutablePointer<GtkWidget>
    private let candidateList: UnsafeMutablePointer<GtkWidget>
    /// The feeds the page offered, in the list's order; empty until a page offers several.
    private(set) var candidates: [FeedCandidate] = []
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
        let prompt = Widgets.label(tr("Enter the address of a feed, or of a web page that has one."), classes: ["dim-label"])
        gtk_label_set_wrap(cast(prompt), 1)
        message = Widgets.label("", classes: ["error"])
        gtk_label_set_wrap(cast(message), 1)
        gtk_label_set_selectable(cast(message), 1)
        spinner = gtk_spinner_new()
        candidateList = gtk_list_box_new()
        gtk_list_box_set_selection_mode(cast(candidateList), GTK_SELECTION_SINGLE)
        gtk_widget_add_css_class(candidateList, "boxed-list")
        gtk_widget_set_visible(candidateList, 0)
        cgtk_accessible_set_label(cast(candidateList), tr("Feeds on this page"))
        let content = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [prompt, entry, candidateList, message, spinner])
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

    /// The text of the message under the address: a problem, or the invitation to choose.
    var messageText: String { String(cString: gtk_label_get_text(cast(message))) }

    /// Types `address` into the address field, as a person pasting it.
    func enter(_ address: String) { gtk_editable_set_text(cast(entry), address) }

    /// Selects the `index`th feed the page offered.
    func choose(_ index: Int) {
        gtk_list_box_select_row(cast(candidateList), gtk_list_box_get_row_at_index(cast(candidateList), Int32(index)))
    }

    private func validate() {
        let valid = FeedLibrary.feedURL(from: text) != nil
        gtk_widget_set_sensitive(addButton, valid.gboolean)
        gtk_label_set_text(cast(message), "")
        showCandidates([])
    }

    /// Subscribes to the feed chosen from the page's list; otherwise finds the feeds for the
    /// address and subscribes when there is one, or lists them when there are several.
    func add() {
        if let row = gtk_list_box_get_selected_row(cast(candidateList)), candidates.indices.contains(Int(gtk_list_box_row_get_index(row))) {
            subscribe(to: candidates[Int(gtk_list_box_row_get_index(row))].url.absoluteString)
            return
        }
        let address = text
        guard FeedLibrary.feedURL(from: address) != nil else { return }
        setBusy(true)
        Task { @MainActor [weak self, library] in
            do {
                let found = try await library.findFeeds(for: address)
                guard let self else { return }
                if found.count == 1 {
                    self.subscribe(to: found[0].url.absoluteString)
                } else {
                    self.setBusy(false)
                    self.showCandidates(found)
                    gtk_label_set_text(cast(self.message), tr("This page offers several feeds. Choose one to add."))
                    gtk_widget_remove_css_class(self.message, "error")
                }
            } catch {
                self?.fail(error)
            }
        }
    }

    private func subscribe(to address: String) {
        setBusy(true)
        Task { @MainActor [weak self, library] in
            do {
                let feed = try await library.subscribe(to: address)
                self?.onAdded(feed)
                self?.close()
            } catch {
                self?.fail(error)
            }
        }
    }

    private func fail(_ error: any Error) {
        setBusy(false)
        gtk_widget_add_css_class(message, "error")
        gtk_label_set_text(cast(message), ErrorReason(error).sentence)
    }

    private func showCandidates(_ found: [FeedCandidate]) {
        candidates = found
        while let row = gtk_widget_get_first_child(candidateList) { gtk_list_box_remove(cast(candidateList), row) }
        for candidate in found {
            let title = Widgets.label(candidate.title ?? candidate.url.host ?? candidate.url.absoluteString)
            let address = Widgets.label(candidate.url.absoluteString, classes: ["dim-label", "caption"])
            gtk_label_set_ellipsize(cast(address), PANGO_ELLIPSIZE_MIDDLE)
            let row = Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 2, [title, address])
            Widgets.setMargins(row, horizontal: 10, vertical: 6)
            gtk_list_box_append(cast(candidateList), row)
        }
        gtk_widget_set_visible(candidateList, (!found.isEmpty).gboolean)
        if !found.isEmpty { choose(0) }
    }

    private func setBusy(_ busy: Bool) {
        gtk_widget_set_sensitive(entry, (!busy).gboolean)
        gtk_widget_set_sensitive(addButton, (!busy).gboolean)
        gtk_spinner_set_spinning(cast(spinner), busy.gboolean)
        if busy { gtk_label_set_text(cast(message), "") }
    }

    private func close() { gtk_window_destroy(cast(window)) }
}
