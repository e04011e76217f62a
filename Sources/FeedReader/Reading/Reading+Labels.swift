import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Labelling entries: the entry menu's "Labels…" and L open ``EntryLabelsPopover`` at the entry's
/// row, or for several entries selected at the one read; each change is stored at once (queued for
/// a synced entry's server), one made to several entries offers Undo, and the sidebar's label rows
/// follow.
extension Reading {
    func addLabelActions() {
        Widgets.addAction(to: window, "label-entry", withInt64: true) { [weak self] id in self?.showLabels(ofEntry: id) }
        Widgets.addAction(to: window, "label-selected-entry") { [weak self] _ in
            guard let self else { return }
            self.showLabels(ofEntries: self.entryList.selectedIDs)
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

    /// Renames, deletes or undoes a label, saying why in a toast when the store refused; the sidebar follows.
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
        showLabels(ofEntries: [id], opened: opened)
    }

    /// Opens the labels of the entries `ids` at the row of the one read (else the first shown):
    /// a label on all of them checked, on some of them half-checked; each change goes to all.
    func showLabels(ofEntries ids: [Int64], opened: ((EntryLabelsPopover) -> Void)? = nil) {
        Task { @MainActor [weak self] in
            guard let self, ids.contains(where: { self.entryList.entries[$0] != nil }) else { return }
            let store = self.library.store
            let names = ((try? await store.labels()) ?? []).map(\.name)
            let carried = ((try? await store.labelNames(ofEntries: ids)) ?? [:]).values.flatMap { $0 }
            let counts = Dictionary(carried.map { ($0, 1) }, uniquingKeysWith: +)
            let shownAt = ([self.entryList.selectedID].compactMap { $0 }.filter(ids.contains) + ids).lazy
                .compactMap { self.entryList.rowWidgets(showing: $0)?.box }.first
            guard let row = shownAt else { return }
            let note = ids.lazy.compactMap { self.entryList.entries[$0].flatMap { self.labelsStayHereNote(feedID: $0.feedID) } }.first
            let popover = EntryLabelsPopover(on: row, names: names, on: Set(counts.filter { $0.value == ids.count }.keys),
                                             partly: Set(counts.filter { $0.value < ids.count }.keys), note: note) {
                [weak self] name, isOn in
                let changed = try await store.setLabel(name, on: ids, isOn)
                await self?.model.changed(.counts)
                if ids.count > 1 { self?.offerUndo(ofLabel: name, isOn, changed) }
            }
            popover.popup()
            opened?(popover)
        }
    }

    /// Says that a label was put on or taken off several entries, with an Undo that changes
    /// back only the entries `changed`.
    private func offerUndo(ofLabel name: String, _ isOn: Bool, _ changed: [Int64]) {
        guard !changed.isEmpty else { return }
        let text = isOn
            // TRANSLATORS: a notice after a label (a tag) was put on several entries at once; %@ is its name.
            ? tr("Label “%@” put on the selected entries").filling(name)
            // TRANSLATORS: a notice after a label (a tag) was taken off several entries at once; %@ is its name.
            : tr("Label “%@” taken off the selected entries").filling(name)
        toasts.show(text, button: tr("_Undo")) { [weak self] in
            self?.changeLabels { try await $0.setLabel(name, on: changed, !isOn) }
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
