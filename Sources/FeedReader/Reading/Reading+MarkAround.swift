import CGtk
import FeedCore
import RefreshGtk

/// Marking read what the list shows above or below an entry (its context menu), with an Undo.
extension Reading {
    /// Adds the entry menu's "Mark Above as Read" and "Mark Below as Read".
    func addMarkAroundActions() {
        Widgets.addAction(to: window, "mark-above-read", withInt64: true) { [weak self] id in self?.markRead(around: id, below: false) }
        Widgets.addAction(to: window, "mark-below-read", withInt64: true) { [weak self] id in self?.markRead(around: id, below: true) }
    }

    /// Marks read the unread entries the list shows above the entry `id`, or below it (those
    /// not loaded yet too), as the list's feed, folder, view or search has them.
    private func markRead(around id: Int64, below: Bool) {
        guard let position = entryList.order.firstIndex(of: id) else { return }
        Task { @MainActor [weak self, library] in
            guard let list = self?.entryList else { return }
            do {
                let listed = below ? list.unreadListed(in: (position + 1)..<list.order.count) : list.unreadListed(in: 0..<position)
                let ids = below ? listed + (try await list.unreadBelowLoaded()) : listed
                let changed = try await library.store.markRead(entryIDs: ids)
                guard let self = self?.live else { return }
                self.entryList.showRead(true, ids: Set(changed))
                await self.model.unreadCountsChanged()
                self.offerUndo(ofMarkingRead: changed)
            } catch {
                self?.onFailure?(tr("The read state could not be saved."), error)
            }
        }
    }
}
