import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// The sidebar's saved searches (smart folders): saving the search typed, with the list's
/// filter and the sidebar's selection as its scope, renaming and deleting one. Each is a row
/// of the model (`FeedSelection.savedSearch`) whose unread count the model reads with the others.
@MainActor
final class SavedSearches {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let life: WidgetLife
    private let store: FeedStore
    private let model: LibraryModel
    private let filterBar: EntryFilterBar
    private let toasts: Toasts
    /// Says a failure to save.
    var onFailure: ((String, any Error) -> Void)?

    init(window: UnsafeMutablePointer<GtkWidget>, life: WidgetLife, store: FeedStore, model: LibraryModel,
         filterBar: EntryFilterBar, toasts: Toasts) {
        (self.window, self.life, self.store, self.model, self.filterBar, self.toasts) = (window, life, store, model, filterBar, toasts)
    }

    /// The search typed, when there is one to save.
    private var typed: String? {
        let text = String(cString: gtk_editable_get_text(cast(filterBar.searchEntry))).trimmingCharacters(in: .whitespacesAndNewlines)
        return SearchQuery(text).matchExpression == nil ? nil : text
    }

    /// What a search saved now keeps: the list's filter, and the sidebar's selection as where it looks.
    var current: (filter: SavedSearch.Filter, scope: SavedSearch.Scope) {
        let scope: SavedSearch.Scope = switch model.selection {
        case let .feed(id): .feed(id)
        case let .folder(id): .folder(id)
        case let .account(id): .account(id)
        case let .label(id): .label(id)
        case let .savedSearch(id): model.savedSearch(id: id)?.scope ?? .everything
        case .all, .starred, .labelsHeading: .everything
        }
        let filter: SavedSearch.Filter = model.selection == .starred ? .starred : filterBar.filter == .unread ? .unread : .all
        return (filter, scope)
    }

    /// Adds `save-search` (enabled while a search is typed), `rename-saved-search` and `delete-saved-search`.
    func addActions() {
        Widgets.addAction(to: window, "save-search") { [weak self] _ in
            guard let self, let text = self.typed else { return }
            NameDialog.present(.saveSearch, over: self.window, text: text) { [weak self] name in self?.save(text, named: name) }
        }
        Widgets.addAction(to: window, "rename-saved-search", withInt64: true) { [weak self] id in
            guard let self, let search = self.model.savedSearch(id: id) else { return }
            NameDialog.present(.renameSavedSearch, over: self.window, text: search.name) { [weak self] name in
                self?.rename(id, to: name)
            }
        }
        Widgets.addAction(to: window, "delete-saved-search", withInt64: true) { [weak self] id in self?.delete(id) }
        let enable = { [weak self] in
            guard let self, let action = g_action_map_lookup_action(cast(self.window), "save-search") else { return }
            g_simple_action_set_enabled(cast(action), (self.typed != nil).gboolean)
        }
        Signal.connect(cast(filterBar.searchEntry), "changed") { enable() }
        enable()
    }

    /// Saves `text` as a row named `name`, selected once it shows; the search bar closes on it.
    func save(_ text: String, named name: String) {
        let (filter, scope) = current
        Task { @MainActor [weak self, store] in
            do {
                let saved = try await store.saveSearch(named: name, query: text, filter: filter, scope: scope)
                guard let self = self?.live else { return }
                gtk_search_bar_set_search_mode(cast(self.filterBar.searchBar), 0)
                await self.model.changed(.counts, selecting: .savedSearch(saved.id))
            } catch {
                self?.onFailure?(tr("The search could not be saved."), error)
            }
        }
    }

    private func rename(_ id: Int64, to name: String) {
        Task { @MainActor [weak self, store] in
            do {
                try await store.renameSavedSearch(id: id, to: name)
            } catch {
                self?.onFailure?(tr("The search could not be renamed."), error)
            }
            await self?.model.changed(.counts)
        }
    }

    /// Forgets a saved search (its entries stay), with an Undo that saves it again.
    private func delete(_ id: Int64) {
        guard let search = model.savedSearch(id: id) else { return }
        Task { @MainActor [weak self, store] in
            do {
                try await store.removeSavedSearch(id: id)
            } catch {
                self?.onFailure?(tr("The search could not be deleted."), error)
                return
            }
            guard let self = self?.live else { return }
            await self.model.changed(.counts, selecting: self.model.selection == .savedSearch(id) ? .all : nil)
            // TRANSLATORS: a toast after a saved search was deleted from the sidebar; %@ is its name.
            self.toasts.show(tr("Search “%@” deleted").filling(search.name), button: tr("_Undo")) { [weak self] in
                Task { @MainActor [weak self, store] in
                    do {
                        let saved = try await store.saveSearch(named: search.name, query: search.query, filter: search.filter, scope: search.scope)
                        await self?.model.changed(.counts, selecting: .savedSearch(saved.id))
                    } catch {
                        self?.onFailure?(tr("The search could not be saved."), error)
                    }
                }
            }
        }
    }

    /// The part while the window's widgets exist, nil once they are gone.
    private var live: SavedSearches? { life.isAlive ? self : nil }
}
