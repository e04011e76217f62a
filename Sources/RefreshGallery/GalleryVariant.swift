import CGtk
import RefreshCore
import RefreshGtk

/// One page of the gallery per component variant, as in MJRefresh's example app.
enum GalleryVariant: String, CaseIterable, Sendable {
    case normalHeader = "normal-header"
    case stateHeader = "state-header"
    case gifHeader = "gif-header"
    case hiddenTime = "hidden-time"
    case hiddenTexts = "hidden-texts"
    case customTitles = "custom-titles"
    case customIndicator = "custom-indicator"
    case normalAutoFooter = "auto-footer"
    case stateAutoFooter = "state-auto-footer"
    case gifAutoFooter = "gif-auto-footer"
    case normalBackFooter = "back-footer"
    case stateBackFooter = "state-back-footer"
    case gifBackFooter = "gif-back-footer"
    case noMoreData = "no-more-data"
    case hiddenFooter = "hidden-footer"
    case trailer = "trailer"

    /// The sidebar's name for the page.
    var title: String {
        switch self {
        case .normalHeader: "Normal header"
        case .stateHeader: "State header"
        case .gifHeader: "Gif header"
        case .hiddenTime: "Hidden time"
        case .hiddenTexts: "Hidden texts"
        case .customTitles: "Custom titles"
        case .customIndicator: "Custom indicator"
        case .normalAutoFooter: "Auto footer"
        case .stateAutoFooter: "State auto footer"
        case .gifAutoFooter: "Gif auto footer"
        case .normalBackFooter: "Back footer"
        case .stateBackFooter: "State back footer"
        case .gifBackFooter: "Gif back footer"
        case .noMoreData: "No more data"
        case .hiddenFooter: "Hidden footer"
        case .trailer: "Trailer"
        }
    }

    /// What to do on the page, shown above its list.
    var hint: String {
        switch self {
        case .normalHeader, .stateHeader, .gifHeader, .hiddenTime, .hiddenTexts, .customTitles, .customIndicator:
            "Pull the list down and let go: new entries arrive after a moment."
        case .normalAutoFooter, .stateAutoFooter, .gifAutoFooter:
            "Scroll to the end: more entries load by themselves, or click the footer."
        case .normalBackFooter, .stateBackFooter, .gifBackFooter:
            "Scroll to the end, pull further up and let go to load more."
        case .noMoreData:
            "Scroll to the end: the second load reports that nothing is left."
        case .hiddenFooter:
            "Scroll to the end: after one load the footer hides itself."
        case .trailer:
            "Scroll to the last card, pull further left and let go to see more."
        }
    }

    /// Which edge the page's component sits on, for tests and the hint.
    var edge: RefreshEdge {
        switch self {
        case .normalHeader, .stateHeader, .gifHeader, .hiddenTime, .hiddenTexts, .customTitles, .customIndicator: .top
        case .normalAutoFooter, .stateAutoFooter, .gifAutoFooter, .normalBackFooter, .stateBackFooter,
             .gifBackFooter, .noMoreData, .hiddenFooter: .bottom
        case .trailer: .right
        }
    }

    /// Whether the page's component loads when scrolled into view rather than when pulled and released.
    var isAutoFooter: Bool {
        [.normalAutoFooter, .stateAutoFooter, .gifAutoFooter, .noMoreData, .hiddenFooter].contains(self)
    }

    /// A new page showing this variant.
    @MainActor
    func makePage() -> GalleryPage {
        GalleryPage(variant: self, component: makeComponent())
    }

    @MainActor
    private func makeComponent() -> RefreshComponent {
        switch self {
        case .normalHeader:
            return NormalHeader()
        case .stateHeader:
            return StateHeader()
        case .gifHeader:
            return gifHeader()
        case .hiddenTime:
            let header = gifHeader()
            header.showsLastUpdated = false
            return header
        case .hiddenTexts:
            let header = gifHeader()
            header.showsLastUpdated = false
            header.stateLabelHidden = true
            return header
        case .customTitles:
            let header = NormalHeader()
            header.normalIndicator.texts.fontSize = 16
            return header
                .title("Drag down to fetch the latest", for: .idle)
                .title("Let go, fresh entries are ready", for: .pulling)
                .title("Fetching fake entries…", for: .refreshing)
        case .customIndicator:
            return RefreshHeader(indicator: ProgressRingIndicator())
        case .normalAutoFooter, .noMoreData, .hiddenFooter:
            return NormalAutoFooter()
        case .stateAutoFooter:
            return StateAutoFooter()
        case .gifAutoFooter:
            let footer = GifAutoFooter()
            // MJRefresh's Gif auto footer shows images only while loading.
            Self.loadFrames(into: footer, states: [.refreshing])
            return footer
        case .normalBackFooter:
            return NormalBackFooter()
        case .stateBackFooter:
            return StateBackFooter()
        case .gifBackFooter:
            let footer = GifBackFooter()
            Self.loadFrames(into: footer, states: [.idle, .pulling, .refreshing])
            return footer
        case .trailer:
            return NormalTrailer()
        }
    }

    @MainActor
    private func gifHeader() -> GifHeader {
        let header = GifHeader()
        Self.loadFrames(into: header, states: [.idle, .pulling, .refreshing])
        return header
    }

    /// Gives a Gif component the gallery's frames; a page without them shows its texts alone.
    @MainActor
    private static func loadFrames(into component: some GifRefreshComponent, states: [RefreshState]) {
        for state in states {
            do {
                try component.setImages(contentsOf: GalleryFrames.paths(for: state), for: state)
            } catch {
                cgtk_log_warning("refresh-gallery", "Gif frames not loaded: \(error)")
            }
        }
    }
}
