import CGtk
import Foundation
import RefreshCore

/// A pull-down header: MJRefresh's header, with the last-updated time it remembers.
@MainActor
open class RefreshHeader: PullComponent {
    /// MJRefresh's header height.
    public static let defaultHeight = 54.0

    /// The key the last-updated time is stored under; headers sharing a key share the time.
    public var lastUpdatedKey = "RefreshHeaderLastUpdatedTime" {
        didSet { refreshIndicator() }
    }
    /// Formats the last-updated line; set `custom` to replace the text entirely.
    public var lastUpdatedFormatter = LastUpdatedFormatter() {
        didSet { refreshIndicator() }
    }
    /// The key file the last-updated time persists in, in its `LastUpdated` group: by default
    /// `$XDG_STATE_HOME/<program name>/refreshgtk.ini`. Headers naming one file share it; the
    /// library saves it whole, so it is a file of its own, not one the app writes too. A time
    /// found only in `settings.ini` beside it, where earlier versions kept it, is taken over.
    public var lastUpdatedFile: String {
        get { store.path }
        set { store = LastUpdatedStore.shared(at: newValue) }
    }
    /// The store of ``lastUpdatedFile``.
    var store = LastUpdatedStore.shared(at: LastUpdatedStore.defaultPath) {
        didSet { refreshIndicator() }
    }
    /// Whether the last-updated line is shown.
    public var showsLastUpdated = true {
        didSet { refreshIndicator() }
    }

    /// A header `height` pixels tall drawn by `indicator`, calling `action` when a refresh begins.
    public init(indicator: any RefreshIndicator, height: Double = defaultHeight, refreshing action: (@MainActor () -> Void)? = nil) {
        super.init(edge: .top, extent: height, indicator: indicator)
        refreshingAction = action
    }

    /// When the content was last refreshed, if ever. The header records the end of each of its
    /// refreshes; an app that refreshes the content otherwise too (in the background, when it
    /// is first loaded) sets the time it knows, so that the line tells the truth.
    public var lastUpdated: Date? {
        get { store.date(forKey: lastUpdatedKey) }
        set {
            store.setDate(newValue, forKey: lastUpdatedKey)
            refreshIndicator()
        }
    }

    override open func subtitle() -> String? {
        guard showsLastUpdated else { return nil }
        return LastUpdatedLine.string(for: lastUpdated, formatter: lastUpdatedFormatter)
    }

    override open func recordLastUpdated() {
        store.setDate(lastUpdatedFormatter.clock(), forKey: lastUpdatedKey)
    }
}

/// The header with an arrow, a spinner, the state text and the last-updated line.
@MainActor
public final class NormalHeader: RefreshHeader {
    /// The indicator drawing this header.
    public let normalIndicator: NormalIndicator

    public init(refreshing action: (@MainActor () -> Void)? = nil) {
        normalIndicator = NormalIndicator()
        super.init(indicator: normalIndicator, refreshing: action)
    }
}

/// The header in GNOME's look: MJRefresh's Normal content (the state, the last-updated time, the
/// arrow and spinner) on one compact line, the time as a dim caption.
@MainActor
public final class CompactHeader: RefreshHeader {
    /// A GNOME list's compact row height: room for one line of text and a spinner.
    public static let compactHeight = 40.0

    /// The indicator drawing this header, its ``NormalIndicator/arrangement`` inline.
    public let normalIndicator: NormalIndicator

    public init(refreshing action: (@MainActor () -> Void)? = nil) {
        normalIndicator = NormalIndicator()
        normalIndicator.arrangement = .inline
        normalIndicator.labelInset = 8
        super.init(indicator: normalIndicator, height: Self.compactHeight, refreshing: action)
    }
}

/// The header with texts only: a title per state and the last-updated line.
@MainActor
public final class StateHeader: RefreshHeader {
    /// The indicator drawing this header.
    public let stateIndicator: StateIndicator

    public init(refreshing action: (@MainActor () -> Void)? = nil) {
        stateIndicator = StateIndicator()
        super.init(indicator: stateIndicator, refreshing: action)
    }

    /// Hides the state text; the last-updated line then takes the whole height.
    public var stateLabelHidden: Bool {
        get { stateIndicator.titleHidden }
        set {
            stateIndicator.titleHidden = newValue
            refreshIndicator()
        }
    }

    /// Hides the last-updated line; the state text then takes the whole height.
    public var lastUpdatedLabelHidden: Bool {
        get { !showsLastUpdated }
        set { showsLastUpdated = !newValue }
    }
}

extension RefreshComponent {
    /// Chaining form of ``setTitle(_:for:)``.
    @discardableResult
    public func title(_ title: String, for state: RefreshState) -> Self {
        setTitle(title, for: state)
        return self
    }

    /// Chaining form of ``afterEnding``.
    @discardableResult
    public func onEnd(_ handler: @escaping @MainActor () -> Void) -> Self {
        afterEnding = handler
        return self
    }
}
