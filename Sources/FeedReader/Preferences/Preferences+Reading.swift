import RefreshGtk

/// The Reading preferences: when entries are marked read, and how articles look.
extension Preferences {
    private enum ReadingKey {
        static let group = "Reading"
        /// The switch this choice replaced: 0 meant marking only by hand.
        static let markReadOnShow = "mark-read-on-show"
        static let markRead = "mark-read", zoom = "article-zoom", font = "article-font", fontPoints = "article-font-points"
        static let measure = "article-measure", remoteImages = "load-remote-images"
        static let markReadOnScroll = "mark-read-on-scroll"
    }

    /// When showing an entry marks it read.
    enum MarkRead: Int, CaseIterable {
        case whenSelected = 0, afterDelay, byHand

        /// How long an entry stays selected before `afterDelay` marks it read.
        static let delay = 3.0
    }

    /// The article's typeface.
    enum ArticleFont: Int, CaseIterable {
        case system = 0, serif, sans, monospace

        /// fontconfig's generic family, resolved to an installed one when applied; nil for the
        /// desktop's interface font.
        var genericFamily: String? {
            switch self {
            case .system: nil
            case .serif: "serif"
            case .sans: "sans-serif"
            case .monospace: "monospace"
            }
        }
    }

    /// The greatest width of the article's text, in `em` of its font.
    enum Measure: Int, CaseIterable {
        case narrow = 0, medium, wide

        /// The value of the page's `data-measure`, which its style sheet sizes the column by.
        var name: String {
            switch self {
            case .narrow: "narrow"
            case .medium: "medium"
            case .wide: "wide"
            }
        }
    }

    /// The text sizes offered, in points; 0 is the desktop's.
    static let fontPointChoices = [0, 9, 10, 11, 12, 13, 14, 16, 18, 20, 24]

    /// When showing an entry marks it read (as soon as it is selected unless changed).
    var markRead: MarkRead {
        get {
            if let saved = settings.integer(forKey: ReadingKey.markRead, in: ReadingKey.group).flatMap(MarkRead.init(rawValue:)) {
                return saved
            }
            return flag(ReadingKey.markReadOnShow, in: ReadingKey.group, default: true) ? .whenSelected : .byHand
        }
        set { setInteger(newValue.rawValue, ReadingKey.markRead, in: ReadingKey.group) }
    }

    /// Whether entries scrolled past the top of the list are marked read (off unless turned on).
    var marksReadOnScroll: Bool {
        get { flag(ReadingKey.markReadOnScroll, in: ReadingKey.group, default: false) }
        set { setFlag(newValue, ReadingKey.markReadOnScroll, in: ReadingKey.group) }
    }

    /// The article's zoom level, 1 for none; kept from one run to the next.
    var articleZoom: Double {
        get {
            let percent = settings.integer(forKey: ReadingKey.zoom, in: ReadingKey.group) ?? 100
            return ArticleZoom.clamped(Double(percent) / 100)
        }
        set { setInteger(Int((ArticleZoom.clamped(newValue) * 100).rounded()), ReadingKey.zoom, in: ReadingKey.group) }
    }

    /// The article's typeface (the desktop's unless changed).
    var articleFont: ArticleFont {
        get { settings.integer(forKey: ReadingKey.font, in: ReadingKey.group).flatMap(ArticleFont.init(rawValue:)) ?? .system }
        set { setInteger(newValue.rawValue, ReadingKey.font, in: ReadingKey.group) }
    }

    /// The article's text size in points; 0, the default, is the desktop's.
    var articleFontPoints: Int {
        get {
            settings.integer(forKey: ReadingKey.fontPoints, in: ReadingKey.group)
                .flatMap { Self.fontPointChoices.contains($0) ? $0 : nil } ?? 0
        }
        set { setInteger(newValue, ReadingKey.fontPoints, in: ReadingKey.group) }
    }

    /// How wide the article's column may grow (medium unless changed).
    var articleMeasure: Measure {
        get { settings.integer(forKey: ReadingKey.measure, in: ReadingKey.group).flatMap(Measure.init(rawValue:)) ?? .medium }
        set { setInteger(newValue.rawValue, ReadingKey.measure, in: ReadingKey.group) }
    }

    /// Whether articles load their images from the web (on unless turned off).
    var loadsRemoteImages: Bool {
        get { flag(ReadingKey.remoteImages, in: ReadingKey.group, default: true) }
        set { setFlag(newValue, ReadingKey.remoteImages, in: ReadingKey.group) }
    }
}

/// The article's zoom levels, as Ctrl+plus and Ctrl+minus step through them.
enum ArticleZoom {
    static let levels: [Double] = [0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.2, 1.33, 1.5, 1.7, 2, 2.4, 3]

    /// The next level up from `zoom`, or the highest.
    static func larger(than zoom: Double) -> Double {
        levels.first { $0 > zoom + 0.005 } ?? levels.last!
    }

    /// The next level down from `zoom`, or the lowest.
    static func smaller(than zoom: Double) -> Double {
        levels.last { $0 < zoom - 0.005 } ?? levels.first!
    }

    /// `zoom` within the offered range (a hand-edited settings file may hold anything).
    static func clamped(_ zoom: Double) -> Double {
        guard zoom.isFinite else { return 1 }
        return min(max(zoom, levels.first!), levels.last!)
    }
}
