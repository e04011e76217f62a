import CGtk
import RefreshCore

/// A footer pulled up past the end of the content and released: MJRefresh's back footer.
///
/// It follows the header's rules at the bottom edge: pulled past its height it says "Release to
/// load more", released there it holds its height while the app loads, then springs back. It
/// sits at the end of the content, or at the end of the view when the content is shorter. Rows
/// appended just before the load ends take its space, so they show where the footer was (a
/// GtkTextView measures new lines later, in idle time: the footer springs back there instead).
@MainActor
open class RefreshBackFooter: PullComponent {
    /// MJRefresh's footer height.
    public static let defaultHeight = 44.0

    /// An end waiting for the next frame, and the frame clock it waits on (kept alive until then).
    private var deferredEnd: (clock: ObjectRef<OpaquePointer>, handler: Signal.HandlerID)?
    private var deferredNoMoreData = false
    private var deferredCompletions: [@MainActor () -> Void] = []

    /// A back footer drawn by `indicator`, calling `action` when it loads.
    public init(indicator: any RefreshIndicator, loading action: (@MainActor () -> Void)? = nil) {
        super.init(edge: .bottom, extent: Self.defaultHeight, indicator: indicator)
        refreshingAction = action
    }

    /// Ends the load and shows that everything is loaded: the footer can still be pulled, but it
    /// no longer loads. Callable from any thread or task.
    nonisolated public func endRefreshingWithNoMoreData(completion: (@Sendable @MainActor () -> Void)? = nil) {
        MainThread.run { [self] in self.end(noMoreData: true, completion: completion) }
    }

    /// Lets a footer that had no more data load again. Callable from any thread or task.
    nonisolated public func resetNoMoreData() {
        MainThread.run { [self] in self.send(.resetNoMoreData) }
    }

    /// Ends after the next frame's layout. Apps append the loaded rows and end in one go, but
    /// the list reports its new length only when laid out: ending then lets the new rows take
    /// the footer's space (the list stays put, as MJRefresh keeps the offset when rows were
    /// added) instead of springing back and leaving them below the fold.
    override func end(noMoreData: Bool, completion: (@MainActor () -> Void)?) {
        guard isRefreshing, let view, view.isMapped,
              let clock = gtk_widget_get_frame_clock(view.widget) else {
            super.end(noMoreData: noMoreData, completion: completion)
            return
        }
        deferredNoMoreData = deferredNoMoreData || noMoreData
        if let completion { deferredCompletions.append(completion) }
        guard deferredEnd == nil else { return }
        let handler = Signal.connect(cast(clock), "after-paint") { [weak self] in self?.endNow() }
        deferredEnd = (ObjectRef(retaining: clock), handler)
        gtk_widget_queue_allocate(view.widget)
    }

    isolated deinit {
        if let deferredEnd { g_signal_handler_disconnect(cast(deferredEnd.clock.pointer), deferredEnd.handler) }
    }

    override func viewWillUnmap() {
        // Off screen no frame may come: end at once rather than leave the spinner waiting.
        endNow()
        super.viewWillUnmap()
    }

    private func endNow() {
        guard let deferred = deferredEnd else { return }
        g_signal_handler_disconnect(cast(deferred.clock.pointer), deferred.handler)
        deferredEnd = nil
        let noMoreData = deferredNoMoreData
        let completions = deferredCompletions
        deferredNoMoreData = false
        deferredCompletions.removeAll()
        super.end(noMoreData: noMoreData) {
            for completion in completions { completion() }
        }
    }

    override open func defaultTitle(for state: RefreshState) -> String {
        switch state {
        case .idle: RefreshLocalization.text(.backFooterIdle)
        case .pulling: RefreshLocalization.text(.backFooterPulling)
        case .refreshing, .willRefresh: RefreshLocalization.text(.backFooterRefreshing)
        case .noMoreData: RefreshLocalization.text(.backFooterNoMoreData)
        }
    }
}

/// The back footer with an arrow pointing up, a spinner and the state text.
@MainActor
public final class NormalBackFooter: RefreshBackFooter {
    /// The indicator drawing this footer.
    public let normalIndicator: NormalIndicator

    public init(loading action: (@MainActor () -> Void)? = nil) {
        normalIndicator = NormalIndicator()
        super.init(indicator: normalIndicator, loading: action)
    }
}

/// The back footer with the state text only.
@MainActor
public final class StateBackFooter: RefreshBackFooter {
    /// The indicator drawing this footer.
    public let stateIndicator: StateIndicator

    public init(loading action: (@MainActor () -> Void)? = nil) {
        stateIndicator = StateIndicator()
        super.init(indicator: stateIndicator, loading: action)
    }

    /// Hides the state text.
    public var stateLabelHidden: Bool {
        get { stateIndicator.titleHidden }
        set {
            stateIndicator.titleHidden = newValue
            refreshIndicator()
        }
    }
}
