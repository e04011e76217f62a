import RefreshCore
@testable import RefreshGtk

/// Records what a component reports, and ends each refresh after a short delay like an app would.
@MainActor
final class Recorder {
    var states: [RefreshState] = []
    var refreshes = 0
    var afterEndings = 0

    /// Attaches to `component`; each refresh ends `endAfter` seconds after it began.
    init(_ component: RefreshComponent, endAfter: Double? = 0.3) {
        component.observeState { [weak self] in self?.states.append($0) }
        component.afterEnding = { [weak self] in self?.afterEndings += 1 }
        component.refreshingAction = { [weak self, weak component] in
            self?.refreshes += 1
            guard let endAfter else { return }
            MainThread.after(endAfter) { component?.endRefreshing() }
        }
    }

    /// Waits until a whole refresh cycle is over: idle, at rest, callbacks done.
    func waitForCycle(of component: RefreshComponent, timeout: Double = 8) -> Bool {
        GtkTestEnvironment.iterate(timeout: timeout) {
            self.afterEndings >= 1 && component.state == .idle && component.logic.offset == 0
        }
    }
}
