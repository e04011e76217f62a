import FeedCore
import RefreshGtk

/// What the window does once shown: the very first run subscribes to the bundled samples, so the
/// window starts with something to read (never again, so samples removed stay removed), and
/// welcomes the newcomer with what to do next; samples subscribed from another copy of the app's
/// data follow the one it ships now, so they refresh. Then the stored entries show at once,
/// without waiting for the network; once they show, the sidebar fills the items of its rows
/// below the screen and lists them, the list its rows below the screen, the background refresh
/// is scheduled, the accounts sync, and the rest of the database's pages are checked.
@MainActor
enum WindowStart {
    static func run(_ main: MainWindow, fetchingRecoveredFeeds: Bool) {
        let offersSamples = main.settings.integer(forKey: WindowKey.samplesSubscribed, in: WindowKey.library) == nil
        if offersSamples { main.article.offer(FirstRunWelcome()) }
        Task { @MainActor [weak main, library = main.library] in
            if offersSamples {
                await library.subscribeToSamplesIfEmpty(in: AppData.sampleFeeds)
                main?.settings.setInteger(1, forKey: WindowKey.samplesSubscribed, in: WindowKey.library)
            } else {
                await library.followSamples(to: AppData.sampleFeeds)
            }
            guard let main = main?.live else { return }
            // The model's change shows the sidebar, selects the saved row and lists its entries;
            // it fills the items of the sidebar's rows as they are shown.
            main.model.fillsItemsWhenAsked = true
            await main.model.changed(.feeds, selecting: main.reading.savedSelection)
            await main.entryList.listed()
            guard main.live != nil else { return }
            // What the first frame of entries does without: the sidebar's items and the sidebar's
            // and the list's rows below the screen, and the background refresh's schedule, which
            // reads every feed again.
            WindowFrames.afterNextFrame(of: main.window, main.life.tied(onMain: { [weak main] in
                main?.model.fillEveryItem()
                main?.sidebar.listEveryRow()
                main?.entryList.listEveryRow()
            }))
            main.backgroundRefresh.minutes = main.preferences.refreshMinutes
            // Each checks the window is there once its own wait ends.
            // Subscriptions recovered into a new database have no entries yet: they are fetched at once.
            if fetchingRecoveredFeeds { main.refreshing.beginRefresh() }
            Task { @MainActor [weak main] in await main?.accounts.syncAccounts(reporting: true) }
            MainThread.whenIdle { [weak main] in main?.cleanUp.runIfDue() }
            // Its reading of the whole file (about 0.4 s and 10 MB at a million entries) waits
            // until the reader has had its first look, rather than competing with it.
            MainThread.after(pageCheckDelay) { [weak main] in if let main { checkPages(of: main) } }
        }
    }

    /// Seconds from the entries showing to the check of the pages the start left unchecked.
    static let pageCheckDelay = 5.0

    /// Reads the database pages the start left unchecked, off the main thread once the entries
    /// show; damage found goes to the banner, and the next start repairs it.
    private static func checkPages(of main: MainWindow) {
        Task { @MainActor [weak main, store = main.library.store] in
            guard let reason = await store.checkPages(), let main = main?.live else { return }
            main.notices.showDamage(reason)
        }
    }
}
