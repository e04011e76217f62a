import CGtk
import RefreshCore

/// A footer that loads more as it scrolls into view: MJRefresh's auto footer.
///
/// It sits right after the content, as if it were its last row; it loads when scrolled into
/// view, when clicked or tapped, or (with content shorter than the view) on release of a drag
/// towards the end. Each gesture loads at most ``autoTriggerTimes`` times.
@MainActor
open class AutoFooter: RefreshComponent {
    /// MJRefresh's footer height.
    public static let defaultHeight = 44.0

    private let footerRules: Rules<AutoFooterMachine>

    /// A footer drawn by `indicator`, calling `action` when it loads.
    public init(indicator: any RefreshIndicator, loading action: (@MainActor () -> Void)? = nil) {
        let size = indicator.preferredExtent.map { max($0, Self.defaultHeight) } ?? Self.defaultHeight
        footerRules = Rules(AutoFooterMachine(extent: size))
        // A pull reveals the footer and stops there: it never stretches.
        super.init(edge: .bottom, rules: footerRules, stretches: false, indicator: indicator)
        refreshingAction = action
        let click = gtk_gesture_click_new()!
        Signal.connectClickAt(cast(click), "released") { [weak self] _, _ in self?.tapped() }
        gtk_widget_set_can_target(indicatorWidget, 1)
        gtk_widget_set_cursor_from_name(indicatorWidget, "pointer")
        gtk_widget_add_controller(indicatorWidget, cast(click))
    }

    /// The footer's rules.
    var footerMachine: AutoFooterMachine { footerRules.machine }

    // MARK: - Public API

    /// Loads by itself when scrolled into view; when off, only a click or tap loads.
    public var automaticallyRefresh: Bool {
        get { footerMachine.automaticallyRefresh }
        set { footerRules.machine.automaticallyRefresh = newValue }
    }

    /// How much of the footer must be visible to load (1 = all of it; negative values load earlier).
    public var triggerAutomaticallyRefreshPercent: Double {
        get { footerMachine.triggerPercent }
        set { footerRules.machine.triggerPercent = newValue }
    }

    /// Loads per gesture: 1 by default, -1 for unlimited.
    public var autoTriggerTimes: Int {
        get { footerMachine.autoTriggerTimes }
        set { footerRules.machine.autoTriggerTimes = newValue }
    }

    /// Hides the text while loading, leaving the spinner alone.
    public var refreshingTitleHidden = false {
        didSet { refreshIndicator() }
    }

    /// Hides the footer: it gives its space back and never loads.
    public var isHidden: Bool {
        get { footerMachine.isHidden }
        set {
            send(.hidden(newValue))
            gtk_widget_set_visible(indicatorWidget, (!newValue).gboolean)
        }
    }

    /// Ends the load and shows that everything is loaded; the footer no longer loads.
    /// Callable from any thread or task.
    nonisolated public func endRefreshingWithNoMoreData(completion: (@Sendable @MainActor () -> Void)? = nil) {
        MainThread.run { [self] in self.end(noMoreData: true, completion: completion) }
    }

    /// Lets a footer that had no more data load again. Callable from any thread or task.
    nonisolated public func resetNoMoreData() {
        MainThread.run { [self] in self.send(.resetNoMoreData) }
    }

    override open func defaultTitle(for state: RefreshState) -> String {
        switch state {
        case .refreshing, .willRefresh:
            refreshingTitleHidden ? "" : RefreshLocalization.text(.autoFooterRefreshing)
        case .noMoreData:
            RefreshLocalization.text(.autoFooterNoMoreData)
        case .idle, .pulling:
            RefreshLocalization.text(.autoFooterIdle)
        }
    }

    // MARK: - View plumbing

    override var showsAtRest: Bool { footerMachine.contentFitsViewport && !footerMachine.isHidden }

    override func allocateIndicator(width: Double, height: Double, content: (x: Double, y: Double)) {
        guard footerMachine.contentFitsViewport, let view else {
            super.allocateIndicator(width: width, height: height, content: content)
            return
        }
        // Short content: the footer sits right after the last row, inside the view.
        let contentEnd = min(view.contentExtent(for: edge), height - extent)
        super.allocateIndicator(width: width, height: contentEnd + extent, content: content)
    }

    private func tapped() {
        send(.tapped)
    }
}

/// The auto footer with a spinner and the state text.
@MainActor
public final class NormalAutoFooter: AutoFooter {
    public let normalIndicator: NormalIndicator

    public init(loading action: (@MainActor () -> Void)? = nil) {
        normalIndicator = NormalIndicator()
        normalIndicator.showsArrow = false
        super.init(indicator: normalIndicator, loading: action)
    }
}

/// The auto footer with the state text only.
@MainActor
public final class StateAutoFooter: AutoFooter {
    public let stateIndicator: StateIndicator

    public init(loading action: (@MainActor () -> Void)? = nil) {
        stateIndicator = StateIndicator()
        super.init(indicator: stateIndicator, loading: action)
    }
}
