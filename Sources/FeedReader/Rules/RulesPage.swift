import CAdw
import CGtk
import FeedCore
import Foundation
import ReaderCommands
import RefreshGtk

/// The Rules page of Preferences (preferences/rules-page.ui): each rule as a row, in the order
/// they apply, with a switch enabling it, Move Up, Move Down and Delete (with Undo); a click
/// opens it in the editor; "Apply to Existing Entries" with progress.
@MainActor
final class RulesPage {
    enum Action: String, PartAction {
        case add
        case apply
    }

    static let file = "preferences/rules-page.ui"

    let page: UnsafeMutablePointer<GtkWidget>
    private let group: UnsafeMutablePointer<GtkWidget>
    private let emptyRow: UnsafeMutablePointer<GtkWidget>
    let applyProgress: UnsafeMutablePointer<GtkWidget>
    private var actions: PartActions<Action>!
    let rules: RuleChanges
    /// The preferences window: the editor opens over it and its toasts show there.
    private let window: UnsafeMutablePointer<GtkWidget>
    /// The rules shown, in their order.
    private(set) var shown: [StoredRule] = []
    /// The row of each rule shown, in order.
    private(set) var rows: [RuleRow] = []
    private let life: WidgetLife

    init(rules: RuleChanges, window: UnsafeMutablePointer<GtkWidget>) {
        self.rules = rules
        self.window = window
        let file = BuilderFile(Self.file)
        page = file.widget("page")
        // The builder's reference ends with it: the page holds its own until the window takes it.
        g_object_ref(cast(page))
        group = file.widget("rules_group")
        emptyRow = file.widget("empty_row")
        g_object_ref(cast(emptyRow))
        applyProgress = file.widget("apply_progress")
        life = WidgetLife(page)
        actions = PartActions(on: page, prefix: "rules") { [weak self] action in
            switch action {
            case .add: self?.edit(Rule(name: "", conditions: [], actions: [.hide]))
            case .apply: self?.applyToExisting()
            }
        }
        Signal.connect(cast(page), "destroy") { [emptyRow] in g_object_unref(cast(emptyRow)) }
        Task { @MainActor [weak self] in await self?.reload() }
    }

    isolated deinit {
        g_object_unref(cast(page))
    }

    /// Lists the stored rules again.
    func reload() async {
        do {
            let stored = try await rules.store.rules()
            guard life.isAlive else { return }
            show(stored)
        } catch {
            say(tr("The rules could not be read."))
        }
    }

    private func show(_ stored: [StoredRule]) {
        // The rows are made anew: the keyboard's focus goes back to the same control of the same rule.
        let focused = focusedControl()
        for row in rows { adw_preferences_group_remove(cast(group), row.row) }
        if gtk_widget_get_parent(emptyRow) != nil { adw_preferences_group_remove(cast(group), emptyRow) }
        shown = stored
        rows = stored.enumerated().map { index, listed in
            let row = RuleRow(listed, isFirst: index == 0, isLast: index == stored.count - 1)
            row.onToggle = { [weak self] enabled in self?.setEnabled(listed.rule, enabled) }
            row.onMove = { [weak self] offset in self?.move(listed.rule, from: index, by: offset) }
            row.onDelete = { [weak self] in self?.delete(listed.rule, at: index) }
            row.onEdit = { [weak self] in self?.edit(listed.rule) }
            adw_preferences_group_add(cast(group), row.row)
            return row
        }
        if stored.isEmpty { adw_preferences_group_add(cast(group), emptyRow) }
        if let focused {
            // A deleted rule's neighbour takes the focus.
            let index = stored.firstIndex { $0.rule.id == focused.ruleID } ?? min(focused.index, rows.count - 1)
            if rows.indices.contains(index) { rows[index].focus(focused.control) }
        }
    }

    /// The rule whose row holds the keyboard's focus, its place, and which of its controls has it.
    private func focusedControl() -> (ruleID: Int64, index: Int, control: RuleRow.Control)? {
        guard let root = gtk_widget_get_root(page), let focus = gtk_root_get_focus(root) else { return nil }
        for (index, row) in rows.enumerated() {
            if let control = row.control(holding: focus), let id = shown[index].rule.id { return (id, index, control) }
        }
        return nil
    }

    /// Opens `rule` in the editor; Save stores it, and a rule that hides hides what it matches
    /// among the stored entries, as its count said (marking, starring and labelling them waits for Apply).
    func edit(_ rule: Rule) {
        RuleEditor.present(rule, store: rules.store, over: window) { [weak self, rules] edited in
            if edited.id == nil {
                try await rules.add(edited, applying: edited.isEnabled && edited.actions == [.hide] && edited.label == nil)
            } else {
                try await rules.update(edited)
            }
            await self?.reload()
        }
    }

    private func setEnabled(_ rule: Rule, _ enabled: Bool) {
        var changed = rule
        changed.isEnabled = enabled
        run { [rules] in try await rules.update(changed) }
    }

    private func move(_ rule: Rule, from index: Int, by offset: Int) {
        guard let id = rule.id else { return }
        run { [rules] in try await rules.store.moveRule(id: id, to: index + offset) }
    }

    /// Deletes `rule`, showing what it hid again; the toast's Undo puts it back where it was.
    private func delete(_ rule: Rule, at index: Int) {
        guard let id = rule.id else { return }
        run { [weak self, rules] in
            try await rules.remove(id: id)
            // TRANSLATORS: %@ is the name of the rule deleted.
            self?.toast(tr("Rule “%@” deleted").filling(rule.name), undo: {
                self?.run { try await rules.restore(rule, at: index) }
            })
        }
    }

    /// Applies the enabled rules to every stored entry, showing how far it went.
    private func applyToExisting() {
        actions.setEnabled(.apply, false)
        gtk_progress_bar_set_fraction(cast(applyProgress), 0)
        gtk_widget_set_visible(applyProgress, 1)
        Task { @MainActor [weak self, rules] in
            let application: RuleApplication?
            do {
                application = try await rules.applyToExisting { [weak self] fraction in self?.showProgress(fraction) }
            } catch {
                application = nil
            }
            guard let self, self.life.isAlive else { return }
            gtk_widget_set_visible(self.applyProgress, 0)
            self.actions.setEnabled(.apply, true)
            guard let application else { return self.say(tr("The rules could not be applied to the stored entries.")) }
            self.toast(trn("The rules matched %d stored entry", "The rules matched %d stored entries", application.matched)
                .filling(count: application.matched))
        }
    }

    private func showProgress(_ fraction: Double) {
        if life.isAlive { gtk_progress_bar_set_fraction(cast(applyProgress), fraction) }
    }

    /// Runs `change`, then lists the rules again; a failure is said in a toast.
    private func run(_ change: @escaping @MainActor () async throws -> Void) {
        Task { @MainActor [weak self] in
            do {
                try await change()
            } catch {
                self?.say(ErrorReason(error).sentence)
            }
            await self?.reload()
        }
    }

    private func say(_ text: String) { toast(text) }

    private func toast(_ text: String, undo: (@MainActor () -> Void)? = nil) {
        guard life.isAlive else { return }
        let toast = adw_toast_new(text)!
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
        if let undo {
            adw_toast_set_button_label(toast, tr("_Undo"))
            Signal.connect(cast(toast), "button-clicked") { undo() }
        }
        adw_preferences_window_add_toast(cast(window), toast)
    }
}

/// One rule on the Rules page: its name, what it does (or why it gave up), a switch, Move Up,
/// Move Down and Delete; a click opens it.
@MainActor
final class RuleRow {
    let row: UnsafeMutablePointer<GtkWidget>
    let toggle: UnsafeMutablePointer<GtkWidget>
    let upButton: UnsafeMutablePointer<GtkWidget>
    let downButton: UnsafeMutablePointer<GtkWidget>
    let deleteButton: UnsafeMutablePointer<GtkWidget>
    var onToggle: (@MainActor (Bool) -> Void)?
    var onMove: (@MainActor (Int) -> Void)?
    var onDelete: (@MainActor () -> Void)?
    var onEdit: (@MainActor () -> Void)?

    init(_ stored: StoredRule, isFirst: Bool, isLast: Bool) {
        row = adw_action_row_new()!
        adw_preferences_row_set_use_markup(cast(row), 0)
        adw_preferences_row_set_title(cast(row), stored.rule.name)
        let summary = RuleWords.summary(of: stored.rule)
        adw_action_row_set_subtitle(cast(row), stored.problem.map { $0.sentence + "\n" + summary } ?? summary)
        adw_action_row_set_subtitle_lines(cast(row), 3)
        gtk_list_box_row_set_activatable(cast(row), 1)
        if stored.problem != nil {
            let warning = gtk_image_new_from_icon_name("dialog-warning-symbolic")!
            gtk_widget_add_css_class(warning, "warning")
            adw_action_row_add_prefix(cast(row), warning)
        }
        toggle = gtk_switch_new()!
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        gtk_switch_set_active(cast(toggle), stored.rule.isEnabled.gboolean)
        // TRANSLATORS: names a rule's switch for screen readers; %@ is the rule's name.
        cgtk_accessible_set_label(cast(toggle), tr("Rule “%@” enabled").filling(stored.rule.name))
        adw_action_row_add_suffix(cast(row), toggle)
        upButton = Self.button("go-up-symbolic", tr("Move Up"), in: row)
        downButton = Self.button("go-down-symbolic", tr("Move Down"), in: row)
        deleteButton = Self.button("user-trash-symbolic", tr("Delete Rule"), in: row)
        gtk_widget_set_sensitive(upButton, (!isFirst).gboolean)
        gtk_widget_set_sensitive(downButton, (!isLast).gboolean)
        Signal.connectIgnoringArgument(cast(toggle), "notify::active") { [weak self, toggle] in
            self?.onToggle?(gtk_switch_get_active(cast(toggle)) != 0)
        }
        Signal.connect(cast(upButton), "clicked") { [weak self] in self?.onMove?(-1) }
        Signal.connect(cast(downButton), "clicked") { [weak self] in self?.onMove?(1) }
        Signal.connect(cast(deleteButton), "clicked") { [weak self] in self?.onDelete?() }
        Signal.connect(cast(row), "activated") { [weak self] in self?.onEdit?() }
        // The row holds its widgets' owner: the page drops its list when it lists again.
        ObjectData.set(self, on: row, "feed-reader-rule-row")
    }

    /// A control of the row that can hold the keyboard's focus.
    enum Control {
        case row, toggle, up, down, delete
    }

    /// Which control `focus` is, or is inside; nil when it is outside the row.
    func control(holding focus: UnsafeMutablePointer<GtkWidget>) -> Control? {
        let controls: [(UnsafeMutablePointer<GtkWidget>, Control)] = [(toggle, .toggle), (upButton, .up), (downButton, .down),
                                                                     (deleteButton, .delete), (row, .row)]
        return controls.first { focus == $0.0 || gtk_widget_is_ancestor(focus, $0.0) != 0 }?.1
    }

    /// Gives `control` the keyboard's focus; a move button disabled at the end of the list hands it to the other one.
    func focus(_ control: Control) {
        let widget = switch control {
        case .row: row
        case .toggle: toggle
        case .up: gtk_widget_get_sensitive(upButton) != 0 ? upButton : downButton
        case .down: gtk_widget_get_sensitive(downButton) != 0 ? downButton : upButton
        case .delete: deleteButton
        }
        if gtk_widget_grab_focus(widget) == 0 { gtk_widget_grab_focus(row) }
    }

    /// A flat icon button at the end of `row`, named for everyone.
    private static func button(_ icon: String, _ name: String, in row: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(button, "flat")
        Widgets.name(button, name)
        adw_action_row_add_suffix(cast(row), button)
        return button
    }
}
