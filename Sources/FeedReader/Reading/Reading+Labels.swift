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
        Widgets.addAction(to: window, "rename-label", withInt64: true) { [weak self] id in
            guard let self, let label = self.model.labels.first(where: { $0.id == id }) else { return }
            NameDialog.present(.renameLabel, over: self.window, text: label.name) { [weak self] name in
                self?.changeLabels { try await $0.renameLabel(id: id, to: name) }
            }
        }
        Widgets.addAction(to: window, "delete-label", withInt64: true) { [weak self] id in
            guard let self, let label = self.model.labels.first(where: { $0.id == id }) else { return }
            // TRANSLATORS: the body of the question before a label is deleted; %@ is its name.
            let body = tr("“%@” is taken off its entries, on their servers too. The entries stay.").filling(label.name)
            ConfirmDialog.present(.deleteLabel, over: self.window, body: body) { [weak self] in
                self?.changeLabels(selecting: self?.sidebar.selection == .label(id) ? .all : nil) { try await $0.deleteLabel(id: id) }
            }
        }
    }

    /// Renames or deletes a label, saying why in a toast when the store refused; the sidebar follows.
    private func changeLabels(selecting selection: FeedSelection? = nil, _ change: @escaping (FeedStore) async throws -> Void) {
        Task { @MainActor [weak self, library] in
            do {
                try await change(library.store)
            } catch {
                self?.toasts.show(ErrorReason(error).sentence)
            }
            await self?.model.changed(.entries(), selecting: selection)
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
