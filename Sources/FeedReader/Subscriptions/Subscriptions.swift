import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The window's subscriptions part: adding, editing and removing feeds, folders, importing and
/// exporting OPML. It changes the store and tells the model what changed; it knows nothing of
/// the sidebar, the list or the article, which follow the model.
@MainActor
final class Subscriptions {
    private let window: UnsafeMutablePointer<GtkWidget>
    /// Whether the window's widgets still exist, asked after every await.
    private let life: WidgetLife
    private let library: FeedLibrary
    private let model: LibraryModel
    private let accountSync: AccountSync
    private let toasts: Toasts
    /// Where an import shows its progress and an import or export its outcome.
    let importBar: NoticeBar
    /// Says a failure to save or read the store, with the reason when the user can act on it.
    var onFailure: ((String, any Error) -> Void)?
    /// Called with the outcome of the sync that added a feed to an account.
    var onSubscribedInAccount: ((AccountSync.Outcome) -> Void)?

    /// The part over `window`, whose widgets `life` follows.
    init(window: UnsafeMutablePointer<GtkWidget>, life: WidgetLife, library: FeedLibrary, model: LibraryModel,
         accountSync: AccountSync, toasts: Toasts, importBar: NoticeBar) {
        self.window = window
        self.life = life
        self.library = library
        self.model = model
        self.accountSync = accountSync
        self.toasts = toasts
        self.importBar = importBar
    }

    private func failed(_ message: String, _ error: any Error) {
        onFailure?(message, error)
    }

    /// The part while the window's widgets exist, nil once they are gone.
    private var live: Subscriptions? { life.isAlive ? self : nil }

    /// Adds the window's actions for feeds, folders, import and export.
    func addActions() {
        Widgets.addAction(to: window, "add-feed") { [weak self] _ in
            guard let self else { return }
            AddFeedDialog.present(over: self.window, library: self.library, accounts: self.accountSync, selection: self.model.selection,
                                  onAddedToAccount: life.tied { [weak self] _, outcome in self?.onSubscribedInAccount?(outcome) }) { [weak self] feed in
                Task { @MainActor [weak self] in await self?.model.changed(.feeds, selecting: .feed(feed.id)) }
            }
        }
        addFolderActions()
        FeedEditing.addActions(to: window, life: life, library: library, changed: { [weak self] _ in
            Task { @MainActor [weak self] in await self?.model.changed(.feeds) }
        }, failed: { [weak self] message, error in self?.failed(message, error) })
        // Actions belong to the window and go with it: their handlers need no check.
        Widgets.addAction(to: window, "import-subscriptions") { [weak self] _ in self?.chooseFileToImport() }
        Widgets.addAction(to: window, "export-subscriptions") { [weak self] _ in self?.chooseFileToExport() }
        Widgets.addAction(to: window, "remove-feed", withInt64: true) { [weak self] id in self?.remove(feedID: id) }
    }

    /// Removes a feed after asking; a synced feed is unsubscribed on its server too, through the sync engine.
    func remove(feedID: Int64) {
        guard let feed = model.feed(id: feedID) else { return }
        let body = feed.accountID == nil
            // TRANSLATORS: %@ is the feed's title.
            ? tr("“%@” and all its entries will be removed.").filling(feed.displayTitle)
            // TRANSLATORS: %@ is the title of a feed of a sync account.
            : tr("“%@” and all its entries will be removed, here and on the server.").filling(feed.displayTitle)
        ConfirmDialog.present(.removeFeed, over: window, body: body) { [weak self] in
            Task { @MainActor [weak self] in
                guard let self = self?.live else { return }
                do {
                    if let accountID = feed.accountID {
                        do throws(SyncFailure) {
                            try await self.accountSync.engine.unsubscribe(feedID: feedID)
                        } catch {
                            self.toasts.show(self.accountSync.message(error, accountID: accountID))
                        }
                    } else {
                        let removed = try await self.library.store.removeFeedKeepingCopy(id: feedID)
                        // TRANSLATORS: a notice after removing a feed, with an Undo button; %@ is the feed's title.
                        self.toasts.show(tr("“%@” removed").filling(feed.displayTitle), button: tr("_Undo")) { [weak self] in
                            self?.restore(removed, selecting: self?.model.selection.feedID == feedID)
                        }
                    }
                } catch {
                    self.failed(tr("The feed could not be removed."), error)
                }
                await self.model.changed(.feeds, selecting: self.model.selection.feedID == feedID ? .all : nil)
            }
        }
    }

    /// Puts back a feed removed a moment ago, with its entries, their states and its folder; a
    /// synced feed is not offered this: its server has unsubscribed it, and subscribing again
    /// would bring its articles back with the server's states, not the ones removed.
    private func restore(_ removed: RemovedFeed, selecting wasSelected: Bool) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.restore(removed)
            } catch {
                self?.failed(tr("The feed could not be restored."), error)
            }
            await self?.model.changed(.feeds, selecting: wasSelected ? .feed(removed.feedID) : nil)
        }
    }

    /// Carries out the feeds and folders dropped in `sidebar`.
    func takeMoves(from sidebar: FeedSidebar) {
        sidebar.onMoveFeed = { [weak self] feedID, folderID in self?.moveFeed(feedID, toFolder: folderID) }
        sidebar.onMoveFolder = { [weak self] folderID, parentID in self?.moveFolder(folderID, into: parentID) }
    }

    /// Puts a feed in a folder (nil: out of any) and shows it there, and in the folder's entries
    /// when a folder is selected.
    func moveFeed(_ feedID: Int64, toFolder folderID: Int64?) {
        Task { @MainActor [weak self, library, accountSync] in
            do {
                if let remote = try await library.store.remoteFeed(id: feedID) {
                    // A synced feed moves among its account's folders, on the server too.
                    do throws(SyncFailure) {
                        try await accountSync.engine.moveFeed(feedID, toFolder: folderID)
                    } catch {
                        self?.toasts.show(accountSync.message(error, accountID: remote.accountID))
                    }
                } else {
                    try await library.store.moveFeed(feedID, toFolder: folderID)
                }
            } catch {
                self?.failed(tr("The feed could not be moved."), error)
            }
            await self?.model.changed(.folders)
        }
    }

    /// Puts a folder, with all it holds, into another (nil: at the top of the list).
    func moveFolder(_ folderID: Int64, into parentID: Int64?) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.moveFolder(folderID, into: parentID)
            } catch FeedStoreError.folderExists(let name) {
                self?.toasts.show(tr("There is already a folder named “%@”.").filling(name))
            } catch FeedStoreError.folderInsideItself {
                self?.toasts.show(tr("A folder cannot be moved into itself or into a folder inside it."))
            } catch {
                self?.failed(tr("The folder could not be moved."), error)
            }
            await self?.model.changed(.folders)
        }
    }

    /// Makes a folder named `name` and moves `feedID` into it, when given.
    func createFolder(named name: String, moving feedID: Int64? = nil) {
        Task { @MainActor [weak self, library] in
            do {
                let folderID = try await library.store.createFolder(named: name)
                if let feedID { try await library.store.moveFeed(feedID, toFolder: folderID) }
            } catch {
                self?.failed(tr("The folder could not be created."), error)
            }
            await self?.model.changed(.folders)
        }
    }

    func renameFolder(_ folderID: Int64, to name: String) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.renameFolder(folderID, to: name)
            } catch FeedStoreError.folderExists {
                // TRANSLATORS: %@ is the name the person chose for a folder.
                self?.toasts.show(tr("There is already a folder named “%@”.").filling(name))
            } catch {
                self?.failed(tr("The folder could not be renamed."), error)
            }
            await self?.model.changed(.folders)
        }
    }

    /// Deletes a folder; what it holds moves up into the folder it was in, feeds staying subscribed.
    func deleteFolder(_ folderID: Int64) {
        Task { @MainActor [weak self, library] in
            do {
                try await library.store.deleteFolder(folderID)
            } catch {
                self?.failed(tr("The folder could not be deleted."), error)
            }
            guard let self = self?.live else { return }
            await self.model.changed(.folders, selecting: self.model.selection == .folder(folderID) ? .all : nil)
        }
    }

    /// What deleting `folder` does to what it holds, asked before it is done.
    static func deletingSays(_ folder: StoredFolder) -> String {
        let text = folder.parentID == nil
            // TRANSLATORS: %@ is the name of the folder to be deleted, which is in no other folder.
            ? tr("The feeds and folders in “%@” are kept: they move out of it, to the top of the list.")
            // TRANSLATORS: %@ is the name of the folder to be deleted, which is in another folder.
            : tr("The feeds and folders in “%@” are kept: they move out of it, into the folder it is in.")
        return text.filling(folder.name)
    }

    private func addFolderActions() {
        Widgets.addAction(to: window, "move-to-folder") { [weak self] feedID, folderID in
            self?.moveFeed(feedID, toFolder: folderID == 0 ? nil : folderID)
        }
        Widgets.addAction(to: window, "move-folder") { [weak self] folderID, parentID in
            self?.moveFolder(folderID, into: parentID == 0 ? nil : parentID)
        }
        Widgets.addAction(to: window, "move-to-new-folder", withInt64: true) { [weak self] feedID in
            guard let self else { return }
            NameDialog.present(.newFolder, over: self.window) { [weak self] name in
                self?.createFolder(named: name, moving: feedID)
            }
        }
        Widgets.addAction(to: window, "new-folder") { [weak self] _ in
            guard let self else { return }
            NameDialog.present(.newFolder, over: self.window) { [weak self] name in
                self?.createFolder(named: name)
            }
        }
        Widgets.addAction(to: window, "rename-folder", withInt64: true) { [weak self] folderID in
            guard let self, let folder = self.model.folders.first(where: { $0.id == folderID }) else { return }
            NameDialog.present(.renameFolder, over: self.window, text: folder.name) { [weak self] name in
                self?.renameFolder(folderID, to: name)
            }
        }
        Widgets.addAction(to: window, "delete-folder", withInt64: true) { [weak self] folderID in
            guard let self, let folder = self.model.folders.first(where: { $0.id == folderID }) else { return }
            ConfirmDialog.present(.deleteFolder, over: self.window, body: Self.deletingSays(folder)) { [weak self] in
                self?.deleteFolder(folderID)
            }
        }
    }

    /// Subscribes to the feeds of an OPML file, showing the fetching of the new ones as it goes.
    func importSubscriptions(from file: LocalFile) {
        importBar.showProgress(done: 0, total: 0)
        Task { @MainActor [weak self, library] in
            do {
                let report = try await library.importSubscriptions(fromFile: file) { [weak self] done, total in
                    await self?.importProgressed(done: done, total: total)
                }
                guard let self = self?.live else { return }
                self.importBar.show(SubscriptionsReport.summary(of: report))
                await self.model.changed(.feeds)
            } catch let error as OPMLDocument.ReadError {
                self?.importBar.hide()
                self?.toasts.show(error.reason.sentence)
            } catch let error as FeedStoreError {
                self?.importBar.hide()
                self?.failed(SubscriptionsFailure.importing(file, error), error)
            } catch {
                self?.importBar.hide()
                self?.toasts.show(SubscriptionsFailure.importing(file, error))
            }
        }
    }

    /// The new feeds are in the list once their fetching starts; entries follow at the end.
    private func importProgressed(done: Int, total: Int) async {
        importBar.showProgress(done: done, total: total)
        if done == 0 { await model.changed(.counts) }
    }

    /// Writes the subscriptions with their folders to an OPML file.
    func exportSubscriptions(to file: LocalFile) {
        Task { @MainActor [weak self, library] in
            do {
                let count = try await library.exportSubscriptions(to: file)
                self?.importBar.show(SubscriptionsReport.exported(count, to: file))
            } catch {
                self?.toasts.show(SubscriptionsFailure.exporting(file, error))
            }
        }
    }

    private func chooseFileToImport() {
        FileChooser.present(over: window, title: tr("Import Subscriptions"), accept: tr("_Import"), saving: false) { [weak self] file in
            self?.importSubscriptions(from: file)
        }
    }

    private func chooseFileToExport() {
        FileChooser.present(over: window, title: tr("Export Subscriptions"), accept: tr("_Export"), saving: true,
                            suggestedName: "subscriptions.opml") { [weak self] file in
            self?.exportSubscriptions(to: file)
        }
    }
}
