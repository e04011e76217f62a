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

    /// The English source string: the msgid the GTK layer translates in the library's domain.
    ///
    /// Each literal is wrapped in ``N_(_:)`` so that meson-helpers/update-po extracts it.
    public var english: String {
        switch self {
        // TRANSLATORS: the header's text while it can be pulled down.
        case .headerIdle: N_("Pull down to refresh")
        // TRANSLATORS: the header's text once pulled far enough: letting go starts a refresh.
        case .headerPulling: N_("Release to refresh")
        // TRANSLATORS: shown while refreshing or loading more; GNOME style writes "…" (U+2026).
        case .headerRefreshing, .autoFooterRefreshing, .backFooterRefreshing: N_("Loading…")
        // TRANSLATORS: the footer at the end of a list; a click or a pull up loads older items.
        case .autoFooterIdle: N_("Click or pull up to load more")
        // TRANSLATORS: the footer once everything is loaded.
        case .autoFooterNoMoreData, .backFooterNoMoreData: N_("No more data")
        // TRANSLATORS: the footer's text while it can be pulled up.
        case .backFooterIdle: N_("Pull up to load more")
        // TRANSLATORS: the footer's text once pulled far enough: letting go loads more.
        case .backFooterPulling: N_("Release to load more")
        // TRANSLATORS: a prefix put directly before the last update's time, as in "Last update: Today 14:02";
        // keep the trailing space if your language puts one there. The header itself shows the
        // "Last update: %s" form.
        case .headerLastTime: N_("Last update: ")
        // TRANSLATORS: in the last-updated line, before the time of an update made today, as in
        // "Last update: Today 14:02". Write it as it reads there (lower case in many languages).
        case .headerDateToday: N_("Today")
        // TRANSLATORS: in the last-updated line when the list was never refreshed, as in
        // "Last update: Never". Write it as it reads there.
        case .headerNoneLastDate: N_("Never")
        // TRANSLATORS: a side panel's text while it can be swiped open to show more.
        case .trailerIdle: N_("Slide to see more")
        // TRANSLATORS: a side panel's text once swiped far enough: letting go shows more.
        case .trailerPulling: N_("Release to see more")
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
