import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The labels of an entry in a popover at its row: a check button for each label, on when the
/// entry has it, and a field making a new label put on the entry. Each change is stored at once
/// through `change`; a refused name says why under the field, in the person's language.
@MainActor
final class EntryLabelsPopover {
    let popover: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    /// Where a new label's name is typed; Enter makes it.
    let field: UnsafeMutablePointer<GtkWidget>
    private let problem: UnsafeMutablePointer<GtkWidget>
    private let change: (String, Bool) async throws -> Void
    /// Each label's check button, by name.
    private(set) var buttons: [String: UnsafeMutablePointer<GtkWidget>] = [:]

    /// Pops the labels `names` up at `widget`, those in `on` checked, those in `partly` (on some
    /// of several entries) half-checked; `note` (a Fever account's labels staying here) shows
    /// below them when given.
    init(on widget: UnsafeMutablePointer<GtkWidget>, names: [String], on checked: Set<String>, partly: Set<String> = [], note: String?,
         change: @escaping (String, Bool) async throws -> Void) {
        self.change = change
        popover = gtk_popover_new()!
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(box, 6)
        }
        list = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(cast(box), list)
        field = gtk_entry_new()!
        gtk_entry_set_placeholder_text(cast(field), tr("New Label…"))
        cgtk_accessible_set_label(cast(field), tr("New Label"))
        gtk_box_append(cast(box), field)
        problem = gtk_label_new(nil)!
        gtk_widget_add_css_class(problem, "error")
        gtk_label_set_wrap(cast(problem), 1)
        gtk_label_set_max_width_chars(cast(problem), 30)
        gtk_label_set_xalign(cast(problem), 0)
        gtk_widget_set_visible(problem, 0)
        gtk_box_append(cast(box), problem)
        if let note {
            let label = gtk_label_new(note)!
            gtk_widget_add_css_class(label, "dim-label")
            gtk_label_set_wrap(cast(label), 1)
            gtk_label_set_max_width_chars(cast(label), 30)
            gtk_label_set_xalign(cast(label), 0)
            gtk_box_append(cast(box), label)
        }
        gtk_popover_set_child(cast(popover), box)
        for name in names { addButton(name, checked: checked.contains(name), partly: partly.contains(name)) }
        Signal.connect(cast(field), "activate") { [weak self] in self?.createLabel() }
        gtk_widget_set_parent(popover, widget)
        // Kept alive by the popover until it closes, then unparented once its last change ran.
        let keep = Unmanaged.passRetained(self)
        Signal.connect(cast(popover), "closed") { [popover] in
            Widgets.unparentSoon(popover) { keep.release() }
        }
    }

    func popup() { gtk_popover_popup(cast(popover)) }

    /// The text of the problem shown under the field, empty when none is.
    var problemText: String { gtk_widget_get_visible(problem) != 0 ? String(cString: gtk_label_get_text(cast(problem))) : "" }

    private func addButton(_ name: String, checked: Bool, partly: Bool = false) {
        let button = gtk_check_button_new_with_label(name)!
        gtk_check_button_set_active(cast(button), checked.gboolean)
        gtk_check_button_set_inconsistent(cast(button), partly.gboolean)
        buttons[name] = button
        Signal.connect(cast(button), "toggled") { [weak self] in
            guard let self else { return }
            // Once changed, the label is on all the entries or on none.
            gtk_check_button_set_inconsistent(cast(button), 0)
            let isOn = gtk_check_button_get_active(cast(button)) != 0
            Task { @MainActor in await self.store(name, isOn) }
        }
        gtk_box_append(cast(list), button)
    }

    private func createLabel() {
        let typed = String(cString: gtk_editable_get_text(cast(field)))
        Task { @MainActor in
            guard await self.store(typed, true) else { return }
            gtk_editable_set_text(cast(self.field), "")
            let name = (try? LabelName.cleaned(typed)) ?? typed
            if let button = self.buttons[name] {
                gtk_check_button_set_active(cast(button), 1)
            } else {
                self.addButton(name, checked: true)
            }
        }
    }

    /// Stores one change; says why under the field when it was refused.
    @discardableResult
    private func store(_ name: String, _ isOn: Bool) async -> Bool {
        do {
            try await change(name, isOn)
            gtk_widget_set_visible(problem, 0)
            return true
        } catch {
            gtk_label_set_text(cast(problem), ErrorReason(error).sentence)
            gtk_widget_set_visible(problem, 1)
            return false
        }
    }
}
