import FeedCore

extension Reading {
    /// GNOME Shell's "show more": the window lists the search for `text`.
    func showSearch(_ text: String, completion: (@MainActor () -> Void)? = nil) {
        filterBar.showSearch(text)
        entryList.search(text, completion: completion)
        showSelectionTitle()
    }

    /// A result chosen in GNOME Shell's search: the window lists the same search, ranked as the
    /// Shell ranked it, with the entry selected and its article shown.
    func showSearchResult(entryID: Int64, text: String) {
        showSearch(text) { [weak self] in
            guard let self = self?.live, let index = self.entryList.order.firstIndex(of: entryID) else { return }
            self.read { $0.entryList.select(index: index) }
        }
    }
}
