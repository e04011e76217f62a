import CGtk
import FeedCore
import ReaderCommands
import RefreshGtk

/// "Mute Entries Like This…" in an entry's and a feed's menu (`win.mute-entry`,
/// `win.mute-feed`): the rule editor opens prefilled, and Save adds a hide rule that hides the
/// stored entries it matches at once, with Undo; and "Show Hidden Entries" in the main menu
/// (`win.show-hidden`), which lists the entries rules hid, dimmed, and lets a search find them.
@MainActor
final class RuleMuting {
    let rules: RuleChanges
    private let window: UnsafeMutablePointer<GtkWidget>
    private let model: LibraryModel
    private let entryList: EntryListView
    private let toasts: Toasts

    init(window: UnsafeMutablePointer<GtkWidget>, store: FeedStore, model: LibraryModel, entryList: EntryListView, toasts: Toasts) {
        self.window = window
        self.model = model
        self.entryList = entryList
        self.toasts = toasts
        rules = RuleChanges(store: store)
        rules.onChange = { [weak model] in await model?.changed(.entries()) }
    }

    func addActions() {
        Widgets.addAction(to: window, "mute-entry", withInt64: true) { [weak self] id in self?.muteEntry(id) }
        Widgets.addAction(to: window, "mute-feed", withInt64: true) { [weak self] id in self?.muteFeed(id) }
        let showHidden = g_simple_action_new_stateful("show-hidden", nil, g_variant_new_boolean(0))!
        Signal.connectObjectOrNil(cast(showHidden), "change-state") { [weak self] state in
            guard let state else { return }
            g_simple_action_set_state(showHidden, OpaquePointer(state))
            self?.entryList.showsHidden = g_variant_get_boolean(OpaquePointer(state)) != 0
        }
        g_action_map_add_action(cast(window), cast(showHidden))
        g_object_unref(cast(showHidden))
    }

    /// Opens the editor on a hide rule for the entries titled like the entry `id`.
    func muteEntry(_ id: Int64) {
        guard let entry = entryList.entries[id] else { return }
        present(Self.rule(likeEntryTitled: entry.title ?? ""))
    }

    /// Opens the editor on a hide rule for the feed `id`'s entries, asking which words.
    func muteFeed(_ id: Int64) {
        guard let feed = model.feed(id: id) else { return }
        present(Self.rule(forFeedNamed: feed.title?.isEmpty == false ? feed.title! : feed.url.absoluteString))
    }

    /// A hide rule for entries whose title contains `title` (the person shortens it to the words that matter).
    static func rule(likeEntryTitled title: String) -> Rule {
        Rule(name: "", conditions: [RuleCondition(.title, .contains, title.trimmingCharacters(in: .whitespacesAndNewlines))], actions: [.hide])
    }

    /// A hide rule for the feed `name`'s entries whose title contains words still to be typed.
    static func rule(forFeedNamed name: String) -> Rule {
        Rule(name: "", conditions: [RuleCondition(.feed, .is, name), RuleCondition(.title, .contains, "")], actions: [.hide])
    }

    private func present(_ rule: Rule) {
        RuleEditor.present(rule, store: rules.store, over: window) { [weak self] edited in
            guard let self else { return }
            let (stored, matched) = try await self.rules.add(edited, applying: true)
            self.created(stored, matched: matched)
        }
    }

    /// Says what the new rule did, with Undo: the rule goes and what it hid shows again.
    private func created(_ rule: Rule, matched: Int) {
        guard let id = rule.id else { return }
        let text = rule.actions.contains(.hide)
            ? trn("Rule added; %d entry hidden", "Rule added; %d entries hidden", matched).filling(count: matched)
            : tr("Rule added")
        toasts.show(text, button: tr("_Undo")) { [weak self] in
            Task { @MainActor [weak self] in
                do {
                    try await self?.rules.remove(id: id)
                } catch {
                    self?.toasts.show(ErrorReason(error).sentence)
                }
            }
        }
    }
}
