import CGtk
import RefreshCore

/// A component pulled past the trailing edge of horizontally scrolling content: MJRefresh's trailer.
///
/// The header's rules on the horizontal axis, 60 pixels wide and as tall as the view, its text
/// running one character per line. The trailing edge is the right one, or the left one in a
/// right-to-left layout; the trailer moves when the view's direction changes.
@MainActor
open class RefreshTrailer: PullComponent {
    /// MJRefresh's trailer width.
    public static let defaultWidth = 60.0

    /// A trailer drawn by `indicator`, calling `action` when released past its width.
    public init(indicator: any RefreshIndicator, refreshing action: (@MainActor () -> Void)? = nil) {
        super.init(edge: .trailing(rightToLeft: false), extent: Self.defaultWidth, indicator: indicator)
        refreshingAction = action
    }

    override func viewDirectionChanged(rightToLeft: Bool) {
        let trailing = RefreshEdge.trailing(rightToLeft: rightToLeft)
        guard trailing != edge else { return }
        // A pull under way belongs to the old side: let it go there first.
        cancelPull()
        edge = trailing
        refreshIndicator()
    }

    override open func defaultTitle(for state: RefreshState) -> String {
        switch state {
        case .idle, .noMoreData: RefreshLocalization.text(.trailerIdle)
        case .pulling: RefreshLocalization.text(.trailerPulling)
        case .refreshing, .willRefresh: RefreshLocalization.text(.headerRefreshing)
        }
    }
}

/// The trailer with an arrow pointing along the pull, a spinner and the stacked state text.
@MainActor
public final class NormalTrailer: RefreshTrailer {
    /// The indicator drawing this trailer.
    public let normalIndicator: NormalIndicator

    public init(refreshing action: (@MainActor () -> Void)? = nil) {
        normalIndicator = NormalIndicator()
        super.init(indicator: normalIndicator, refreshing: action)
    }
}

/// The trailer with the stacked state text only.
@MainActor
public final class StateTrailer: RefreshTrailer {
    /// The indicator drawing this trailer.
    public let stateIndicator: StateIndicator

    public init(refreshing action: (@MainActor () -> Void)? = nil) {
        stateIndicator = StateIndicator()
        super.init(indicator: stateIndicator, refreshing: action)
    }
}
