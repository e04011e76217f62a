import AppSignals
import CGtk
import FeedCore
import Foundation
import RefreshGtk

/// Wakes at each feed's background-refresh turn while the computer is online and hands the due
/// feeds to `run`; the turns are `BackgroundSchedule`'s, timed by the library's clock. Coming online
/// sets the timer again: feeds whose turn passed offline are fetched a `shortestWait` later, once
/// the connection has settled, not at the instant it appears. Sync accounts are synced every
/// interval too, on a timer of their own.
@MainActor
final class BackgroundRefresh {
    private let library: FeedLibrary
    /// Refreshes the due feeds, returning when they are stored.
    var run: (@MainActor ([StoredFeed]) async -> Void)?
    /// Syncs every account, returning when done.
    var syncAccounts: (@MainActor () async -> Void)?
    /// Minutes between a feed's refreshes; 0 turns background refresh off.
    var minutes = 0 {
        didSet {
            guard minutes != oldValue else { return }
            reschedule()
            nextAccountSync = nil
            rescheduleAccountSync()
        }
    }
    /// When the next wake-up is due, by the library's clock; nil while off, offline or stopped.
    private(set) var nextWake: Date?
    private var timer: guint = 0
    /// When the accounts are due to sync next, by the library's clock; nil while off, offline or stopped.
    private(set) var nextAccountSync: Date?
    private var accountTimer: guint = 0
    private var isSyncingAccounts = false
    private var isRunning = false
    private var isStopped = false
    private let monitor: OpaquePointer
    private var networkHandler: gulong = 0

    /// Refreshes `library`'s feeds while `network` (a GNetworkMonitor, GLib's default one unless
    /// told) says the computer is online.
    init(library: FeedLibrary, network: OpaquePointer = g_network_monitor_get_default()) {
        self.library = library
        monitor = network
        g_object_ref(cast(monitor))
        networkHandler = Signal.connectBool(cast(monitor), "network-changed") { [weak self] _ in
            self?.reschedule()
            self?.rescheduleAccountSync()
        }
    }

    /// Whether the network is up, as the GNetworkMonitor sees it.
    var isOnline: Bool { g_network_monitor_get_network_available(monitor) != 0 }

    private var schedule: BackgroundSchedule? {
        minutes > 0 ? BackgroundSchedule(interval: TimeInterval(minutes) * 60) : nil
    }

    /// Sets the timer for the next turn, or clears it while off or offline.
    func reschedule() {
        cancelTimer()
        nextWake = nil
        guard !isStopped, !isRunning, isOnline, let schedule else { return }
        Task { @MainActor [weak self, library] in
            let wake = await library.nextWake(schedule)
            guard let self, !self.isStopped, !self.isRunning, self.timer == 0, self.schedule == schedule else { return }
            self.nextWake = wake
            self.timer = MainThread.after(max(0, wake.timeIntervalSince(library.now()))) { [weak self] in
                self?.timer = 0
                self?.wake()
            }
        }
    }

    /// Refreshes the feeds whose turn has come, then sets the timer for the next turn.
    func wake() {
        guard !isStopped, !isRunning, isOnline, let schedule else { return }
        cancelTimer()
        nextWake = nil
        isRunning = true
        Task { @MainActor [weak self, library] in
            let due = await library.dueFeeds(schedule)
            if !due.isEmpty { await self?.run?(due) }
            self?.isRunning = false
            self?.reschedule()
        }
    }

    /// Sets the accounts' timer for one interval after their last sync, or a short wait when
    /// that passed while offline; clears it while off or offline.
    private func rescheduleAccountSync() {
        cancelAccountTimer()
        guard !isStopped, !isSyncingAccounts, isOnline, let schedule else { return }
        let now = library.now()
        let due = nextAccountSync ?? now + schedule.interval
        nextAccountSync = due
        accountTimer = MainThread.after(max(due.timeIntervalSince(now), due < now ? schedule.shortestWait : 0)) { [weak self] in
            self?.accountTimer = 0
            self?.syncAccountsNow()
        }
    }

    /// Syncs the accounts now, then sets their timer one interval on.
    func syncAccountsNow() {
        guard !isStopped, !isSyncingAccounts, isOnline, let syncAccounts else { return }
        cancelAccountTimer()
        isSyncingAccounts = true
        Task { @MainActor [weak self] in
            await syncAccounts()
            guard let self else { return }
            self.isSyncingAccounts = false
            self.nextAccountSync = nil
            self.rescheduleAccountSync()
        }
    }

    /// Ends background refresh for good: the window is gone.
    func stop() {
        isStopped = true
        cancelTimer()
        cancelAccountTimer()
        nextWake = nil
        nextAccountSync = nil
        if networkHandler != 0 {
            g_signal_handler_disconnect(cast(monitor), networkHandler)
            networkHandler = 0
        }
    }

    isolated deinit {
        stop()
        g_object_unref(cast(monitor))
    }

    private func cancelAccountTimer() {
        if accountTimer != 0 {
            g_source_remove(accountTimer)
            accountTimer = 0
        }
    }

    private func cancelTimer() {
        if timer != 0 {
            g_source_remove(timer)
            timer = 0
        }
    }
}
