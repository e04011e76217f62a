import CAdw
import CGtk
import FeedCore
import Foundation
import ReaderCommands
import RefreshGtk

/// A rule being edited (preferences/rule-editor.ui): its name, all or any, its conditions, its
/// actions and label, how many stored entries it matches as it is edited (counted off the main thread a
/// moment after the last change), and why it cannot be saved, Save disabled meanwhile.
@MainActor
final class RuleEditor {
    enum Action: String, PartAction {
        case save
        case addCondition = "add-condition"
    }

    static let file = "preferences/rule-editor.ui"
    /// How long the editor waits after a change before counting the matches: typing a word counts once.
    static let countDelay = 0.25

    let window: UnsafeMutablePointer<GtkWidget>
    private let store: FeedStore
    /// The rule as it was opened: its id, and its order and state, which the editor keeps.
    private let original: Rule
    /// Stores the rule; a failure it throws is shown in the editor, which stays open.
    private let onSave: @MainActor (Rule) async throws -> Void
    private let nameRow: UnsafeMutablePointer<GtkWidget>
    private let requirementRow: UnsafeMutablePointer<GtkWidget>
    private let conditionsGroup: UnsafeMutablePointer<GtkWidget>
    private let actionSwitches: [(RuleAction, UnsafeMutablePointer<GtkWidget>)]
    /// The label the rule puts on; empty for none.
    let labelRow: UnsafeMutablePointer<GtkWidget>
    let countLabel: UnsafeMutablePointer<GtkWidget>
    let messageLabel: UnsafeMutablePointer<GtkWidget>
    private(set) var conditionRows: [RuleConditionRow] = []
    private var actions: PartActions<Action>!
    /// The count waiting for the typing to pause, and the count running.
    private var pendingCount: guint = 0
    private var counting: Task<Void, Never>?
    private var isSaving = false
    private var retainedSelf: RuleEditor?

    /// Opens the editor on `rule` over `parent`; `onSave` stores what Save gives.
    @discardableResult
    static func present(_ rule: Rule, store: FeedStore, over parent: UnsafeMutablePointer<GtkWidget>,
                        onSave: @escaping @MainActor (Rule) async throws -> Void) -> RuleEditor {
        let editor = RuleEditor(rule, store: store, onSave: onSave)
        gtk_window_set_transient_for(cast(editor.window), cast(parent))
        gtk_window_present(cast(editor.window))
        return editor
    }

    init(_ rule: Rule, store: FeedStore, onSave: @escaping @MainActor (Rule) async throws -> Void) {
        self.store = store
        original = rule
        self.onSave = onSave
        let file = BuilderFile(Self.file)
        window = file.widget("window")
        gtk_window_set_title(cast(window), rule.id == nil ? tr("New Rule") : tr("Edit Rule"))
        nameRow = file.widget("name_row")
        requirementRow = file.widget("requirement_row")
        conditionsGroup = file.widget("conditions_group")
        actionSwitches = [(.hide, file.widget("hide_switch")), (.markRead, file.widget("read_switch")), (.star, file.widget("star_switch")),
                         (.notify, file.widget("notify_switch"))]
        labelRow = file.widget("label_row")
        countLabel = file.widget("count_label")
        messageLabel = file.widget("message_label")
        retainedSelf = self
        actions = PartActions(on: window, prefix: "rule-editor") { [weak self] action in
            switch action {
            case .save: self?.save()
            case .addCondition: self?.addCondition(RuleCondition(.title, .contains, ""), focusing: true)
            }
        }
        gtk_editable_set_text(cast(nameRow), rule.name)
        adw_combo_row_set_selected(cast(requirementRow), rule.requirement == .any ? 1 : 0)
        for (action, toggle) in actionSwitches {
            gtk_switch_set_active(cast(toggle), rule.actions.contains(action).gboolean)
            Signal.connectIgnoringArgument(cast(toggle), "notify::active") { [weak self] in self?.changed() }
        }
        gtk_editable_set_text(cast(labelRow), rule.label ?? "")
        Signal.connect(cast(labelRow), "changed") { [weak self] in self?.changed() }
        for condition in rule.conditions { addCondition(condition, focusing: false) }
        if rule.conditions.isEmpty { addCondition(RuleCondition(.title, .contains, ""), focusing: false) }
        Signal.connectIgnoringArgument(cast(requirementRow), "notify::selected") { [weak self] in self?.changed() }
        Signal.connect(cast(window), "destroy") { [weak self] in
            guard let self else { return }
            if self.pendingCount != 0 { g_source_remove(self.pendingCount) }
            self.counting?.cancel()
            self.retainedSelf = nil
        }
        changed()
        if let first = conditionRows.first { gtk_widget_grab_focus(first.pattern) }
    }

    /// The rule as the editor shows it now.
    var rule: Rule {
        var rule = original
        let conditions = conditionRows.map(\.condition)
        let name = String(cString: gtk_editable_get_text(cast(nameRow))).trimmingCharacters(in: .whitespaces)
        // Named after its first condition, without the marks that isolate its parts on screen: a name is shown isolated anyway.
        rule.name = name.isEmpty ? conditions.first.map(RuleWords.sentence(for:))?.filter { !Self.isolationMarks.contains($0) } ?? "" : name
        rule.requirement = adw_combo_row_get_selected(cast(requirementRow)) == 1 ? .any : .all
        rule.conditions = conditions
        rule.actions = actionSwitches.filter { gtk_switch_get_active(cast($0.1)) != 0 }.map(\.0)
        let label = String(cString: gtk_editable_get_text(cast(labelRow)))
        rule.label = label.allSatisfy(\.isWhitespace) ? nil : label
        return rule
    }

    /// First Strong Isolate and Pop Directional Isolate, which `String.isolated` puts around a value.
    private static let isolationMarks: Set<Character> = ["\u{2068}", "\u{2069}"]

    /// Whether Save is enabled.
    var canSave: Bool { actions.isEnabled(.save) }

    private func addCondition(_ condition: RuleCondition, focusing: Bool) {
        let row = RuleConditionRow(condition, onChange: { [weak self] in self?.changed() })
        row.onRemove = { [weak self, weak row] in
            guard let self, let row else { return }
            adw_preferences_group_remove(cast(self.conditionsGroup), row.row)
            self.conditionRows.removeAll { $0 === row }
            self.changed()
        }
        conditionRows.append(row)
        adw_preferences_group_add(cast(conditionsGroup), row.row)
        if focusing { gtk_widget_grab_focus(row.pattern) }
        changed()
    }

    /// Checks the rule as it is now (Save follows) and counts its matches once typing pauses.
    private func changed() {
        for row in conditionRows { row.setRemovable(conditionRows.count > 1) }
        let rule = rule
        let problem = Self.problem(with: rule)
        gtk_label_set_text(cast(messageLabel), problem ?? "")
        gtk_widget_set_visible(messageLabel, (problem != nil).gboolean)
        let waitsForText = rule.conditions.contains { $0.pattern.isEmpty }
        actions.setEnabled(.save, problem == nil && !waitsForText && !isSaving)
        if pendingCount != 0 { g_source_remove(pendingCount) }
        pendingCount = 0
        counting?.cancel()
        // Nothing is counted for a rule whose patterns are wrong or missing: it would match nothing, or everything.
        guard !waitsForText, Self.patternsAreValid(rule) else {
            gtk_label_set_text(cast(countLabel), waitsForText ? tr("Type the text each condition looks for.") : "")
            return
        }
        gtk_label_set_text(cast(countLabel), tr("Counting the stored entries it matches…"))
        pendingCount = MainThread.after(Self.countDelay) { [weak self] in
            self?.pendingCount = 0
            self?.count(rule)
        }
    }

    /// Counts the stored entries `rule` matches, off the main thread; a newer change drops the result.
    private func count(_ rule: Rule) {
        counting = Task { @MainActor [weak self, store] in
            let counted = await Task.detached { try? await store.matchCount(of: rule) }.value
            guard let self, !Task.isCancelled else { return }
            guard let counted else {
                gtk_label_set_text(cast(self.countLabel), tr("The stored entries could not be read."))
                return
            }
            gtk_label_set_text(cast(self.countLabel),
                               trn("Matches %d stored entry", "Matches %d stored entries", counted).filling(count: counted))
        }
    }

    /// Why `rule` cannot be saved, in the user's language; nil when it can, or when it only
    /// waits for a condition's text (which the count line asks for, without an error).
    static func problem(with rule: Rule) -> String? {
        var probe = rule
        probe.conditions = rule.conditions.filter { !$0.pattern.isEmpty }
        guard !probe.conditions.isEmpty else { return nil }
        if !rule.doesSomething { return tr("Choose at least one action.") }
        do {
            try probe.validate()
            return nil
        } catch {
            return ErrorReason(error).sentence
        }
    }

    /// Whether every pattern compiles and stays within bounds: a rule with no action yet is still counted.
    private static func patternsAreValid(_ rule: Rule) -> Bool {
        var probe = rule
        probe.actions = [.hide]
        probe.label = nil
        return (try? probe.validate()) != nil
    }

    private func save() {
        guard canSave else { return }
        let rule = rule
        isSaving = true
        actions.setEnabled(.save, false)
        Task { @MainActor [weak self, onSave] in
            do {
                try await onSave(rule)
                guard let self else { return }
                gtk_window_destroy(cast(self.window))
            } catch {
                guard let self else { return }
                self.isSaving = false
                gtk_label_set_text(cast(self.messageLabel), ErrorReason(error).sentence)
                gtk_widget_set_visible(self.messageLabel, 1)
                self.actions.setEnabled(.save, true)
            }
        }
    }
}

/// One condition in the editor (preferences/rule-condition-row.ui): field, comparison, text, Match Case, Remove.
@MainActor
final class RuleConditionRow {
    static let file = "preferences/rule-condition-row.ui"

    let row: UnsafeMutablePointer<GtkWidget>
    let field: UnsafeMutablePointer<GtkWidget>
    let comparison: UnsafeMutablePointer<GtkWidget>
    let pattern: UnsafeMutablePointer<GtkWidget>
    let matchCase: UnsafeMutablePointer<GtkWidget>
    private let removeButton: UnsafeMutablePointer<GtkWidget>
    var onRemove: (@MainActor () -> Void)?

    init(_ condition: RuleCondition, onChange: @escaping @MainActor () -> Void) {
        let file = BuilderFile(Self.file)
        row = file.widget("row")
        // The builder's reference ends with it: the row is held until this goes, in or out of the editor.
        g_object_ref(cast(row))
        field = file.widget("field")
        comparison = file.widget("comparison")
        pattern = file.widget("pattern")
        matchCase = file.widget("match_case")
        removeButton = file.widget("remove_button")
        for field in RuleCondition.Field.allCases { gtk_string_list_append(file.opaque("fields"), RuleWords.name(of: field)) }
        for choice in RuleWords.choices { gtk_string_list_append(file.opaque("comparisons"), RuleWords.name(of: choice)) }
        gtk_drop_down_set_selected(cast(field), guint(RuleCondition.Field.allCases.firstIndex(of: condition.field) ?? 0))
        let choice = RuleWords.Choice(comparison: condition.comparison, isNegated: condition.isNegated)
        gtk_drop_down_set_selected(cast(comparison), guint(RuleWords.choices.firstIndex(of: choice) ?? 0))
        gtk_editable_set_text(cast(pattern), condition.pattern)
        gtk_check_button_set_active(cast(matchCase), condition.isCaseSensitive.gboolean)
        Signal.connectIgnoringArgument(cast(field), "notify::selected") { onChange() }
        showPatternDirection()
        Signal.connectIgnoringArgument(cast(comparison), "notify::selected") { [weak self] in
            self?.showPatternDirection()
            onChange()
        }
        Signal.connect(cast(pattern), "changed") { onChange() }
        Signal.connect(cast(matchCase), "toggled") { onChange() }
        Signal.connect(cast(removeButton), "clicked") { [weak self] in self?.onRemove?() }
    }

    isolated deinit {
        g_object_unref(cast(row))
    }

    /// The condition as the row shows it now.
    var condition: RuleCondition {
        let fields = RuleCondition.Field.allCases
        let field = fields[min(Int(gtk_drop_down_get_selected(cast(field))), fields.count - 1)]
        let choice = RuleWords.choices[min(Int(gtk_drop_down_get_selected(cast(comparison))), RuleWords.choices.count - 1)]
        return RuleCondition(field, choice.comparison, String(cString: gtk_editable_get_text(cast(pattern))),
                             isNegated: choice.isNegated, isCaseSensitive: gtk_check_button_get_active(cast(matchCase)) != 0)
    }

    /// A regular expression's syntax reads left to right whatever the language; a text to look
    /// for follows the language and its own letters.
    private func showPatternDirection() {
        gtk_widget_set_direction(pattern, condition.comparison == .matches ? GTK_TEXT_DIR_LTR : GTK_TEXT_DIR_NONE)
    }

    /// A rule keeps at least one condition: the last one cannot be removed.
    func setRemovable(_ removable: Bool) {
        gtk_widget_set_sensitive(removeButton, removable.gboolean)
    }
}
