import FeedCore
import RefreshGtk

/// Changes to the rules from the window, each followed by what it changes in the lists: the
/// Rules page and "Mute Entries Like This…" go through it. Applying a rule goes through the
/// store as a refresh's does, so what it marks read or stars on a synced account is queued for
/// the server like a change made by hand.
@MainActor
final class RuleChanges {
    let store: FeedStore
    /// Runs after hidden, read or starred entries may have changed: the window lists again.
    var onChange: (@MainActor () async -> Void)?

    init(store: FeedStore) {
        self.store = store
    }

    /// Stores `rule` last, applied to the stored entries too when `applying` (a mute hides what
    /// it was made from at once); returns it with its id and how many entries it matched.
    @discardableResult
    func add(_ rule: Rule, applying: Bool = false) async throws -> (rule: Rule, matched: Int) {
        let stored = try await store.addRule(rule)
        var matched = 0
        if applying, let id = stored.id { matched = try await store.applyRules(ids: [id]).matched }
        await onChange?()
        return (stored, matched)
    }

    /// Stores the new form of `rule`. What it hid is shown, then hidden again as far as the new
    /// form hides it, so hidden entries follow the rule's switch and its conditions.
    func update(_ rule: Rule) async throws {
        try await store.updateRule(rule)
        if rule.isEnabled, rule.actions.contains(.hide), let id = rule.id { try await store.applyRules(ids: [id]) }
        await onChange?()
    }

    /// Removes a rule, showing what it hid.
    func remove(id: Int64) async throws {
        try await store.removeRule(id: id)
        await onChange?()
    }

    /// Puts a removed rule back at `position` of the list, hiding again what it hid.
    func restore(_ rule: Rule, at position: Int) async throws {
        let stored = try await store.addRule(rule)
        guard let id = stored.id else { return }
        try await store.moveRule(id: id, to: position)
        if rule.isEnabled, rule.actions.contains(.hide) { try await store.applyRules(ids: [id]) }
        await onChange?()
    }

    /// Applies the enabled rules to every stored entry, telling `progress` the share done (0 to 1) as it goes.
    func applyToExisting(progress: @escaping @Sendable @MainActor (Double) -> Void) async throws -> RuleApplication {
        let total = max(try await store.entryCount(includingHidden: true), 1)
        let application = try await store.applyRules { done in
            let fraction = min(Double(done.examined) / Double(total), 1)
            MainThread.run { progress(fraction) }
        }
        await onChange?()
        return application
    }
}
