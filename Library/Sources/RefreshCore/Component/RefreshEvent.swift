/// Something that happened to a refresh component: input, an API call or an animation frame.
public enum RefreshEvent: Sendable, Equatable {
    /// A finger, pointer or touchpad took hold of the content.
    case pullBegan
    /// The content is pulled this far past the edge, in pixels.
    case pulled(offset: Double)
    /// The content was let go.
    case released(velocity: Double)
    /// The app asked for a refresh; `isMapped` tells whether the component is on screen.
    case beginRefreshing(isMapped: Bool)
    /// The component appeared on screen.
    case mapped
    /// The app's work finished; footers may report that nothing more is left.
    case endRefreshing(noMoreData: Bool)
    /// A footer that had no more data may load again.
    case resetNoMoreData
    /// An animation moved the content to this offset.
    case animationStep(offset: Double)
    /// An animation reached its target.
    case animationFinished(RefreshAnimation)
    /// The component's extent (height, or width for a trailer) changed.
    case extentChanged(Double)
    /// The content scrolled away from the edge by `distance` pixels (scrollbar, keys, wheel, kinetic).
    case contentScrolled(distance: Double)
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
