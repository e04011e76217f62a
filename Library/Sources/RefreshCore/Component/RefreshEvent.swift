/// Something that happened to a refresh component: input, an API call or an animation frame.
///
/// One vocabulary for every component's machine: each handles the events that concern its
/// rules and ignores the others (a header has no tap, an auto footer no pull past its height).
public enum RefreshEvent: Sendable, Equatable {
    /// User input began: a press, a touchpad sequence, a wheel click, or a touchpad resuming
    /// after a pause on a driver that never says the fingers lifted.
    case gestureBegan
    /// The press or touchpad sequence ended; `movingOpen` when it last moved the way that
    /// pulls the component open (towards the content's end, for a footer).
    case gestureEnded(movingOpen: Bool)
    /// A finger, pointer or touchpad took hold of the content.
    case pullBegan
    /// The content is pulled this far past the edge, in pixels.
    case pulled(offset: Double)
    /// The content was let go, moving at `velocity` pixels per second (positive pulls open).
    case released(velocity: Double)
    /// The pull was abandoned (the gesture was cancelled, the view left the screen, the
    /// component changed sides): the content goes back without triggering anything.
    case pullCancelled
    /// The component was clicked or tapped.
    case tapped
    /// The app asked for a refresh; `isMapped` tells whether the component is on screen.
    case beginRefreshing(isMapped: Bool)
    /// The component appeared on screen.
    case mapped
    /// The app's work finished; footers may report that nothing more is left.
    case endRefreshing(noMoreData: Bool)
    /// A footer that had no more data may load again.
    case resetNoMoreData
    /// Another component of the view started or stopped refreshing (see ``RefreshExclusivity``).
    case blocked(Bool)
    /// The app hid the component, or showed it again.
    case hidden(Bool)
    /// An animation moved the content to this offset.
    case animationStep(offset: Double)
    /// An animation reached its target.
    case animationFinished(RefreshAnimation)
    /// The component's extent (height, or width for a trailer) changed.
    case extentChanged(Double)
    /// The content is `distance` pixels from the component's edge (scrollbar, keys, wheel,
    /// kinetic); `fitsViewport` when it is shorter than the view and cannot scroll.
    case contentScrolled(distance: Double, fitsViewport: Bool)
}

extension RefreshEvent {
    /// The event a pull tracker's update stands for.
    public init(_ update: PullUpdate) {
        switch update {
        case .gestureBegan: self = .gestureBegan
        case let .gestureEnded(movingOpen): self = .gestureEnded(movingOpen: movingOpen)
        case .began: self = .pullBegan
        case let .moved(offset): self = .pulled(offset: offset)
        case let .released(velocity): self = .released(velocity: velocity)
        case .cancelled: self = .pullCancelled
        }
    }
}

/// Why the content is being animated: decides what happens when the animation ends.
public enum RefreshAnimation: Sendable, Hashable {
    /// Revealing the component fully before the refresh action runs.
    case reveal
    /// Returning to rest after a release that did not refresh.
    case springBack
    /// Settling a refreshing pull back to the held extent.
    case settle
    /// Hiding the component after the refresh ended.
    case hide
}

/// What the machine asks its host to do. The host performs effects in order.
public enum RefreshEffect: Sendable, Equatable {
    case stateChanged(from: RefreshState, to: RefreshState)
    case pullingPercentChanged(Double)
    /// Move the content to this offset now.
    case setOffset(Double)
    /// Animate the content from its current offset; report steps and the finish back.
    case animate(to: Double, duration: Double, purpose: RefreshAnimation)
    /// Scroll the content back towards the edge by this many pixels: the held space took them.
    case scrollContent(by: Double)
    /// Stop the running animation where it is.
    case cancelAnimation
    /// Call the app's refreshing closure.
    case runRefreshAction
    /// Call the one-shot completion given to beginRefreshing.
    case completeBeginning
    case notifyAfterBeginning
    /// Store the current time as the last update.
    case recordLastUpdated
    case notifyEndingAnimationBegins
    /// Call the one-shot completion given to endRefreshing.
    case completeEnding
    case notifyAfterEnding
}
