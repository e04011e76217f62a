/// What the article's player keeps from one file to the next.
extension Preferences {
    private enum MediaKey {
        static let group = "Media"
        /// In percent, so that the file holds no binary fractions.
        static let speed = "playback-speed-percent"
    }

    /// The speed episodes and videos play at, as last chosen in a player (normal unless changed).
    var playbackSpeed: Double {
        get {
            settings.integer(forKey: MediaKey.speed, in: MediaKey.group).map { Double($0) / 100 }
                .flatMap { PlaybackSpeed.choices.contains($0) ? $0 : nil } ?? 1
        }
        set { setInteger(Int((newValue * 100).rounded()), MediaKey.speed, in: MediaKey.group) }
    }
}
