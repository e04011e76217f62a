import CGtk
import FeedCore
import RefreshGtk

/// Marks read the entries scrolled past the top of the list, when the preferences ask for it:
/// a short while after scrolling moved, one batch in one transaction, with one Undo for all the
/// batches marked while its toast stays up. Off, it listens to nothing.
@MainActor
final class ScrollMarking {
    /// How long after the list first moves a batch is marked: scrolling brings a batch at this pace.
    static let batchDelay = 0.4

    private let entryList: EntryListView
    private let library: FeedLibrary
    private let model: LibraryModel
    private let toasts: Toasts
    private let life: WidgetLife
    /// Says a failure to save the read states.
    var onFailure: ((String, any Error) -> Void)?
    private var handler: Signal.HandlerID = 0
    private var timer: guint = 0
    /// Every entry above this position of the listing has been passed already: marked then, or
    /// left as it was (an entry marked unread by hand since stays so).
    private var passed = 0
    /// The listing `passed` counts in.
    private var listing = -1
    /// What the Undo of the toast up restores, and the toast's text.
    private var undoable: [Int64] = []
    private var toastText: String?

    init(entryList: EntryListView, library: FeedLibrary, model: LibraryModel, toasts: Toasts, life: WidgetLife) {
        self.entryList = entryList
        self.library = library
        self.model = model
        self.toasts = toasts
        self.life = life
    }

    /// Whether scrolling marks read: on, the list's scroll position is followed; off, not at all.
    var isOn = false {
        didSet {
            guard isOn != oldValue, let adjustment = entryList.verticalAdjustment else { return }
            if isOn {
                // What shows now has not been scrolled past.
                listing = entryList.listing
                passed = entryList.firstPositionBelowTop
                handler = Signal.connect(cast(adjustment), "value-changed") { [weak self] in self?.scrolled() }
            } else {
                g_signal_handler_disconnect(cast(adjustment), handler)
                handler = 0
                if timer != 0 { g_source_remove(timer) }
                timer = 0
            }
        }
    }

    private func scrolled() {
        guard timer == 0 else { return }
        timer = MainThread.after(Self.batchDelay) { [weak self] in
            self?.timer = 0
            self?.markPassed()
        }
    }

    /// Marks read the unread entries scrolled past the top since the last batch.
    private func markPassed() {
        guard isOn, life.isAlive else { return }
        if listing != entryList.listing {
            listing = entryList.listing
            passed = 0
        }
        let boundary = entryList.firstPositionBelowTop
        guard boundary > passed else { return }
        let ids = entryList.unreadListed(in: passed..<boundary)
        passed = boundary
        guard !ids.isEmpty else { return }
        entryList.showRead(true, ids: Set(ids))
        Task { @MainActor [weak self, library] in
            do {
                let changed = try await library.store.markRead(entryIDs: ids)
                self?.offerUndo(of: changed)
            } catch {
                self?.entryList.showRead(false, ids: Set(ids))
                self?.onFailure?(tr("The read state could not be saved."), error)
            }
            await self?.model.unreadCountsChanged()
        }
    }

    /// Shows how many entries scrolling marked, adding them to those of the toast up when it is
    /// this one's, with an Undo for them all.
    private func offerUndo(of changed: [Int64]) {
        guard life.isAlive, !changed.isEmpty else { return }
        undoable = toastText != nil && toasts.message == toastText ? undoable + changed : changed
        let restored = undoable
        let text = trn("%d entry marked as read", "%d entries marked as read", restored.count).filling(count: restored.count)
        toasts.show(text, button: tr("_Undo")) { [weak self] in self?.undo(restored) }
        toastText = toasts.message
    }

    private func undo(_ ids: [Int64]) {
        undoable = []
        toastText = nil
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.setRead(false, entryIDs: ids)
                self?.entryList.showRead(false, ids: Set(ids))
            } catch {
                self?.onFailure?(tr("The read state could not be saved."), error)
            }
            await self?.model.unreadCountsChanged()
        }
    }
}
