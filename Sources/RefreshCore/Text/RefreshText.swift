/// Every user-visible string of the refresh components, with its English source text.
///
/// The English text is the gettext msgid; the GTK layer translates it in the library's domain.
public enum RefreshText: String, Sendable, CaseIterable {
    case headerIdle
    case headerPulling
    case headerRefreshing
    case autoFooterIdle
    case autoFooterRefreshing
    case autoFooterNoMoreData
    case backFooterIdle
    case backFooterPulling
    case backFooterRefreshing
    case backFooterNoMoreData
    case headerLastTime
    case headerDateToday
    case headerNoneLastDate
    case trailerIdle
    case trailerPulling

    /// The English source string.
    public var english: String {
        switch self {
        case .headerIdle: "Pull down to refresh"
        case .headerPulling: "Release to refresh"
        case .headerRefreshing, .autoFooterRefreshing, .backFooterRefreshing: "Loading..."
        case .autoFooterIdle: "Tap or pull up to load more"
        case .autoFooterNoMoreData, .backFooterNoMoreData: "No more data"
        case .backFooterIdle: "Pull up to load more"
        case .backFooterPulling: "Release to load more"
        case .headerLastTime: "Last update: "
        case .headerDateToday: "Today"
        case .headerNoneLastDate: "No record"
        case .trailerIdle: "Slide to see more"
        case .trailerPulling: "Release to see more"
        }
    }

    /// The header's text for a state.
    public static func header(_ state: RefreshState) -> RefreshText {
        switch state {
        case .idle, .noMoreData: .headerIdle
        case .pulling: .headerPulling
        case .refreshing, .willRefresh: .headerRefreshing
        }
    }
}
