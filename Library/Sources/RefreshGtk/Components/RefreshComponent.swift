import CGtk
import Foundation
import RefreshCore

/// A pull-to-refresh component on one edge of a ``RefreshView``: the header's, back footer's and
/// trailer's shared behaviour.
///
/// It feeds input to RefreshCore's `PullTracker` and its subclass's machine (`RefreshMachine`
/// or `AutoFooterMachine`) and carries out the effects they return; it decides nothing they
/// can decide. Drawing belongs to its indicator.
@MainActor
open class RefreshComponent {
    /// The edge the component sits on; a trailer's follows the view's text direction.
    public internal(set) var edge: RefreshEdge
    /// What draws the component.
    public let indicator: any RefreshIndicator

    /// Called when a refresh begins, after the component is fully revealed.
    public var refreshingAction: (@MainActor () -> Void)?
    /// Called after the refreshing action, every time a refresh begins.
    public var afterBeginning: (@MainActor () -> Void)?
    /// Called when the animation that hides the component after a refresh starts.
    public var endingAnimationBeginning: (@MainActor () -> Void)?
    /// Called when the component is back at rest after a refresh.
    public var afterEnding: (@MainActor () -> Void)?

    var tracker: PullTracker
    private let rules: any ComponentRules
    private(set) weak var view: RefreshView?
    let indicatorView: IndicatorView
    private let animator = FrameAnimator()
    private var titles: [RefreshState: String] = [:]
    private var stateObservers: [@MainActor (RefreshState) -> Void] = []
    private var percentObservers: [@MainActor (Double) -> Void] = []
    private var beginCompletions: [@MainActor () -> Void] = []
    private var endCompletions: [@MainActor () -> Void] = []
    private var pendingEvents: [RefreshEvent] = []
    private var isHandlingEvents = false
    private var stateChangedAt = MainThread.now
    private var previousState = RefreshState.idle
    private var localizationObserver: UUID?

    /// Creates a component following `rules`, drawn by `indicator`; a pull stretches past the
    /// component's extent if `stretches`.
    init(edge: RefreshEdge, rules: any ComponentRules, stretches: Bool = true, indicator: any RefreshIndicator) {
        self.edge = edge
        self.indicator = indicator
        self.rules = rules
        tracker = PullTracker(stretches: stretches)
        indicatorView = IndicatorView(indicator: indicator, model: IndicatorModel(
            state: .idle, pullingPercent: 0, edge: edge, title: "", subtitle: nil, stateChangedAt: MainThread.now))
        localizationObserver = RefreshLocalization.addObserver { [weak self] in self?.refreshIndicator() }
        refreshIndicator()
    }

    isolated deinit {
        if let localizationObserver { RefreshLocalization.removeObserver(localizationObserver) }
    }

    // MARK: - Rules

    /// The state machine's view of the component.
    var logic: any RefreshLogic { rules.logic }

    // MARK: - Public API

    public var state: RefreshState { logic.state }
    public var pullingPercent: Double { logic.pullingPercent }
    public var isRefreshing: Bool { logic.state.isRefreshing }
    /// The component's extent along its axis, in pixels.
    public var extent: Double { logic.extent }
    /// The indicator widget, for styling or tests.
    public var indicatorWidget: UnsafeMutablePointer<GtkWidget> { indicatorView.widget.pointer }
    /// What assistive technology reads for the indicator now.
    public var accessibleText: String { indicatorView.accessibleText }
    /// What the indicator shows now.
    public var indicatorModel: IndicatorModel { indicatorView.model }

    /// Calls `handler` with every new state.
    public func observeState(_ handler: @escaping @MainActor (RefreshState) -> Void) {
        stateObservers.append(handler)
    }

    /// Calls `handler` with every new pulling percent.
    public func observePullingPercent(_ handler: @escaping @MainActor (Double) -> Void) {
        percentObservers.append(handler)
    }

    /// Replaces the text shown in `state` (nil restores the translated default).
    public func setTitle(_ title: String?, for state: RefreshState) {
        titles[state] = title
        refreshIndicator()
    }

    /// Attaches the component to the view wrapping `scrolledWindow`, creating it if needed
    /// (see ``RefreshView/view(for:)`` for the parents that allow it).
    @discardableResult
    public func link(to scrolledWindow: OpaquePointer) -> Self {
        RefreshView.view(for: scrolledWindow)?.add(self)
        return self
    }

    /// Attaches the component to `view`.
    @discardableResult
    public func link(to view: RefreshView) -> Self {
        view.add(self)
        return self
    }

    /// Starts a refresh as if the user had pulled; `completion` runs after the refreshing action.
    ///
    /// Off screen, the refresh waits until the component is mapped. While refreshing this does
    /// nothing but call `completion`.
    public func beginRefreshing(completion: (@MainActor () -> Void)? = nil) {
        guard !isRefreshing else {
            completion?()
            return
        }
        if let completion { beginCompletions.append(completion) }
        send(.beginRefreshing(isMapped: view?.isMapped ?? false))
    }

    /// Ends the refresh; `completion` runs when the component is back at rest.
    ///
    /// Callable from any thread or task: it runs on the GTK main thread. While not refreshing
    /// this does nothing but call `completion`.
    nonisolated public func endRefreshing(completion: (@Sendable @MainActor () -> Void)? = nil) {
        MainThread.run { [self] in self.end(noMoreData: false, completion: completion) }
    }

    func end(noMoreData: Bool, completion: (@MainActor () -> Void)?) {
        guard isRefreshing || noMoreData else {
            completion?()
            return
        }
        if let completion { endCompletions.append(completion) }
        send(.endRefreshing(noMoreData: noMoreData))
        if !isRefreshing, logic.animation == nil { flushEndCompletions() }
    }

    // MARK: - Texts

    /// The title shown for `state`: the app's override, else the translated default.
    open func defaultTitle(for state: RefreshState) -> String {
        RefreshLocalization.text(RefreshText.header(state))
    }

    /// The second line, if the component has one.
    open func subtitle() -> String? { nil }

    /// Redraws the indicator from the current state.
    public func refreshIndicator() {
        indicatorView.update(indicatorModel(state: logic.state, pullingPercent: logic.pullingPercent))
        gtk_widget_set_opacity(indicatorView.widget.pointer, logic.alpha)
    }

    private func indicatorModel(state: RefreshState, pullingPercent: Double) -> IndicatorModel {
        IndicatorModel(state: state, previousState: previousState, pullingPercent: pullingPercent, edge: edge,
                       title: titles[state] ?? defaultTitle(for: state), subtitle: subtitle(),
                       stateChangedAt: stateChangedAt)
    }

    // MARK: - View plumbing

    var offset: Double { logic.offset }

    var dragThreshold: Double {
        get { tracker.dragThreshold }
        set { tracker.dragThreshold = newValue }
    }

    /// Whether the indicator is shown with no offset: a footer that sits after short content.
    var showsAtRest: Bool { false }

    /// A touchpad pull is under way from a source that never sends scroll-end.
    var needsPauseDetection: Bool { tracker.needsPauseDetection }

    func attach(to view: RefreshView) {
        if let old = self.view, old !== view { old.remove(self) }
        self.view = view
        // Only a view parents the indicator, and it unparents it in detach().
        assert(gtk_widget_get_parent(indicatorView.widget.pointer) == nil, "the indicator still has a parent")
        gtk_widget_set_parent(indicatorView.widget.pointer, view.widget)
        if view.isMapped { viewDidMap() }
    }

    /// Leaves the view as if it were unmapped first: a held pull is released, animations jump
    /// to their end and nothing keeps a reference to the view.
    func detach() {
        if view?.isMapped == true { viewWillUnmap() }
        animator.finishNow()
        tracker.reset()
        if gtk_widget_get_parent(indicatorView.widget.pointer) != nil {
            gtk_widget_unparent(indicatorView.widget.pointer)
        }
        view = nil
    }

    /// Another component of the view is refreshing and the view allows one refresh at a time:
    /// no pull starts here, and nothing triggers (``RefreshExclusivity``).
    var isBlocked: Bool { logic.isBlocked }

    /// Holds the component back, or lets it go, while another component refreshes.
    func setBlocked(_ blocked: Bool) {
        guard blocked != isBlocked else { return }
        send(.blocked(blocked))
    }

    /// Grows the component to `size` along its axis, as a Gif indicator's taller frames ask.
    func growExtent(to size: Double) {
        guard size > logic.extent else { return }
        send(.extentChanged(size))
    }

    /// The view's text direction changed: a component on the trailing edge moves to the other side.
    func viewDirectionChanged(rightToLeft: Bool) {}

    func input(_ pullInput: PullInput) -> PullResponse {
        guard let view else { return .pass }
        let geometry = PullGeometry(extent: logic.extent, limit: view.viewportExtent(for: edge))
        let response = tracker.handle(pullInput, geometry: geometry, heldOffset: logic.offset,
                                      canStartPull: !isBlocked)
        for update in response.updates { send(RefreshEvent(update)) }
        return response
    }

    /// Abandons the pull under way, if any: the content goes back and nothing triggers.
    func cancelPull() {
        tracker.reset()
        send(.pullCancelled)
    }

    func contentScrolled(distance: Double) {
        guard let view else { return }
        send(.contentScrolled(distance: distance, fitsViewport: view.contentFitsViewport(for: edge)))
    }

    func viewDidMap() {
        send(.mapped)
        // What a pull shows: past its extent, refreshing, and last what its first frame shows, the
        // indicator being pulled, whose text layouts the indicator then keeps.
        indicatorView.warmUpWhenIdle(as: [indicatorModel(state: .pulling, pullingPercent: 1.2),
                                          indicatorModel(state: .refreshing, pullingPercent: 1),
                                          indicatorModel(state: .idle, pullingPercent: 0.5)])
    }

    func viewWillUnmap() {
        cancelPull()
        animator.finishNow()
    }

    func allocateIndicator(width: Double, height: Double, content: (x: Double, y: Double)) {
        let extent = logic.extent
        let frame: (x: Double, y: Double, width: Double, height: Double) = switch edge {
        case .top: (content.x, content.y - extent, width, extent)
        case .bottom: (content.x, height + content.y, width, extent)
        case .left: (content.x - extent, content.y, extent, height)
        case .right: (width + content.x, content.y, extent, height)
        }
        let area = indicatorView.widget.pointer
        gtk_widget_set_child_visible(area, (logic.offset > 0 || showsAtRest).gboolean)
        var point = graphene_point_t(x: Float(frame.x), y: Float(frame.y))
        gtk_widget_allocate(area, Int32(frame.width.rounded()), Int32(frame.height.rounded()), -1,
                            gsk_transform_translate(nil, &point))
    }

    // MARK: - Events and effects

    /// Feeds one event to the machine and performs its effects, in order and one event at a
    /// time: events raised while effects run (a scroll, a finished animation) wait their turn.
    func send(_ event: RefreshEvent) {
        pendingEvents.append(event)
        guard !isHandlingEvents else { return }
        isHandlingEvents = true
        defer { isHandlingEvents = false }
        while !pendingEvents.isEmpty {
            let next = pendingEvents.removeFirst()
            for effect in rules.handle(next) { perform(effect) }
        }
        indicatorFollowsLogic()
    }

    /// Brings the indicator to the machine's percent and opacity after events. Its texts are
    /// rebuilt (the last-updated line read from the store and formatted, the titles translated)
    /// only when the state changes or what they show does, through ``refreshIndicator()``: a
    /// pull step changes neither, and rebuilding them was most of a step's cost.
    private func indicatorFollowsLogic() {
        var model = indicatorView.model
        guard model.state == logic.state else {
            refreshIndicator()
            return
        }
        model.pullingPercent = logic.pullingPercent
        indicatorView.update(model)
        gtk_widget_set_opacity(indicatorView.widget.pointer, logic.alpha)
    }

    private func perform(_ effect: RefreshEffect) {
        switch effect {
        case let .stateChanged(oldState, newState):
            stateChangedAt = MainThread.now
            previousState = oldState
            refreshIndicator()
            view?.componentStateChanged()
            for observer in stateObservers { observer(newState) }
        case let .pullingPercentChanged(percent):
            for observer in percentObservers { observer(percent) }
        case .setOffset:
            view?.offsetsChanged()
        case let .animate(target, duration, purpose):
            guard let view else {
                send(.animationStep(offset: target))
                send(.animationFinished(purpose))
                return
            }
            animator.start(OffsetAnimation(from: logic.offset, to: target, duration: duration), on: view.widget,
                           step: { [weak self] value in self?.send(.animationStep(offset: value)) },
                           finish: { [weak self] in self?.send(.animationFinished(purpose)) })
        case .cancelAnimation:
            animator.stop()
        case let .scrollContent(pixels):
            view?.scrollTowardsEdge(edge, by: pixels)
        case .runRefreshAction:
            refreshingAction?()
        case .completeBeginning:
            let completions = beginCompletions
            beginCompletions.removeAll()
            for completion in completions { completion() }
        case .notifyAfterBeginning:
            afterBeginning?()
        case .recordLastUpdated:
            recordLastUpdated()
            refreshIndicator()
        case .notifyEndingAnimationBegins:
            endingAnimationBeginning?()
        case .completeEnding:
            flushEndCompletions()
        case .notifyAfterEnding:
            afterEnding?()
        }
    }

    private func flushEndCompletions() {
        let completions = endCompletions
        endCompletions.removeAll()
        for completion in completions { completion() }
    }

    /// Stores the end of a refresh; headers keep it as their last-updated time.
    open func recordLastUpdated() {}
}
