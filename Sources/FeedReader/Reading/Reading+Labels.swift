import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Labelling entries: the entry menu's "Labels…" and L open ``EntryLabelsPopover`` at the entry's
/// row; each change is stored at once (queued for a synced entry's server) and the sidebar's label
/// rows follow.
extension Reading {
    func addLabelActions() {
        Widgets.addAction(to: window, "label-entry", withInt64: true) { [weak self] id in self?.showLabels(ofEntry: id) }
        Widgets.addAction(to: window, "label-selected-entry") { [weak self] _ in
            guard let self, let id = self.entryList.selectedID else { return }
            self.showLabels(ofEntry: id)
        }
    }

    /// Opens the labels of the entry `id` at its row; the popover, once open, for tests.
    func showLabels(ofEntry id: Int64, opened: ((EntryLabelsPopover) -> Void)? = nil) {
        Task { @MainActor [weak self] in
            guard let self, let entry = self.entryList.entries[id] else { return }
            let store = self.library.store
            let names = ((try? await store.labels()) ?? []).map(\.name)
            let checked = Set(((try? await store.labelNames(ofEntries: [id])) ?? [:])[id] ?? [])
            guard let row = self.entryList.rowWidgets(showing: id)?.box else { return }
            let popover = EntryLabelsPopover(on: row, names: names, on: checked, note: self.labelsStayHereNote(feedID: entry.feedID)) {
                [weak self] name, isOn in
                try await store.setLabel(name, on: [id], isOn)
                await self?.model.changed(.counts)
            }
            popover.popup()
            opened?(popover)
        }
    }

    /// What the popover says under the labels of an entry whose service has none (Fever).
    private func labelsStayHereNote(feedID: Int64) -> String? {
        guard let accountID = model.feed(id: feedID)?.accountID,
              let account = model.accounts.first(where: { $0.account.id == accountID })?.account,
              SyncEngine.knownServices.first(where: { $0.kind == account.kind })?.capabilities.syncsLabels == false else { return nil }
        return tr("The Fever API has no labels: these stay on this computer.")
    }
}
