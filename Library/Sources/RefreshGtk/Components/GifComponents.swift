import CGtk
import RefreshCore

/// A component drawn by a ``GifIndicator``: MJRefresh's Gif variants.
@MainActor
public protocol GifRefreshComponent: RefreshComponent {
    /// The indicator drawing the component.
    var gifIndicator: GifIndicator { get }
}

extension GifRefreshComponent {
    /// Shows `images` (GdkPaintables, such as GdkTextures) in `state`; see ``GifIndicator``.
    public func setImages(_ images: [OpaquePointer], duration: Double? = nil, for state: RefreshState) {
        gifIndicator.setImages(images, duration: duration, for: state)
    }

    /// Loads image files in order and shows them in `state`; see ``GifIndicator``.
    public func setImages(contentsOf paths: [String], duration: Double? = nil, for state: RefreshState) throws {
        try gifIndicator.setImages(contentsOf: paths, duration: duration, for: state)
    }

    /// Follows new images: grows to the tallest first frame, and draws them.
    func watchImages() {
        gifIndicator.imagesChanged = { [weak self] in
            guard let self else { return }
            growExtent(to: gifIndicator.preferredExtent ?? 0)
            gtk_widget_queue_draw(indicatorWidget)
        }
    }
}

/// The header with images per state beside the state text and the last-updated line.
@MainActor
public final class GifHeader: RefreshHeader, GifRefreshComponent {
    public let gifIndicator: GifIndicator

    /// A header drawn by `indicator` (a new one when nil), calling `action` when a refresh begins.
    public init(indicator: GifIndicator = GifIndicator(), refreshing action: (@MainActor () -> Void)? = nil) {
        gifIndicator = indicator
        super.init(indicator: indicator, refreshing: action)
        watchImages()
    }

    /// Hides the state text; with the last-updated line hidden too, the image is centred.
    public var stateLabelHidden: Bool {
        get { gifIndicator.texts.titleHidden }
        set {
            gifIndicator.texts.titleHidden = newValue
            gtk_widget_queue_draw(indicatorWidget)
        }
    }
}

/// The back footer with images per state beside the state text.
@MainActor
public final class GifBackFooter: RefreshBackFooter, GifRefreshComponent {
    public let gifIndicator: GifIndicator

    /// A back footer drawn by `indicator` (a new one when nil), calling `action` when it loads.
    public init(indicator: GifIndicator = GifIndicator(), loading action: (@MainActor () -> Void)? = nil) {
        gifIndicator = indicator
        super.init(indicator: indicator, loading: action)
        watchImages()
    }
}

/// The auto footer with images per state beside the state text; MJRefresh shows them only
/// while loading, which is what setting images for `.refreshing` alone gives.
@MainActor
public final class GifAutoFooter: AutoFooter, GifRefreshComponent {
    public let gifIndicator: GifIndicator

    /// An auto footer drawn by `indicator` (a new one when nil), calling `action` when it loads.
    public init(indicator: GifIndicator = GifIndicator(), loading action: (@MainActor () -> Void)? = nil) {
        gifIndicator = indicator
        super.init(indicator: indicator, loading: action)
        watchImages()
    }
}
