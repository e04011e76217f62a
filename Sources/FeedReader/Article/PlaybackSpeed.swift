import CGtk
import Foundation
import RefreshGtk

/// Plays GTK's GStreamer media files faster or slower, voices keeping their pitch.
///
/// GTK 4.8's GtkMediaStream has no rate. Its GStreamer backend (GtkGstMediaFile, which
/// libgtk-4-media-gstreamer installs) plays through a GstPlayer, whose `rate` property is what
/// podcast players built on GStreamer set (GNOME Podcasts among them): it seeks with that rate
/// and keeps it through later seeks. The player is the one field GtkGstMediaFile adds to
/// GtkMediaFile; it is used only when the stream is of that type and the field holds a GstPlayer,
/// else the speed control is not offered. The player's playbin gets GStreamer's `scaletempo` as
/// its audio filter, as Parlatype's and Rhythmbox's speed controls do, so that faster speech
/// stays speech and not a higher voice.
@MainActor
enum PlaybackSpeed {
    /// The speeds offered, as podcast players offer them.
    static let choices: [Double] = [0.75, 1, 1.25, 1.5, 2]

    /// A speed as the player's menu shows it, in the current language ("1.25×", "1,25×").
    static func label(_ rate: Double) -> String {
        switch rate {
        // TRANSLATORS: a playback speed, three quarters of the normal one; write the decimal separator of your language.
        case 0.75: tr("0.75×")
        // TRANSLATORS: the normal playback speed.
        case 1: tr("1×")
        // TRANSLATORS: a playback speed; write the decimal separator of your language.
        case 1.25: tr("1.25×")
        // TRANSLATORS: a playback speed, one and a half times the normal one; write the decimal separator of your language.
        case 1.5: tr("1.5×")
        // TRANSLATORS: a playback speed, twice the normal one.
        case 2: tr("2×")
        default: String(format: "%g×", rate)
        }
    }

    /// Whether `stream`'s speed can be set.
    static func canSet(_ stream: UnsafeMutablePointer<GtkMediaStream>) -> Bool { GStreamer.player(of: stream) != nil }

    /// Makes `stream`, just opened, keep voices' pitch at any speed, then plays it at `rate`. Its
    /// playbin takes the filter only before it has built its audio path, which it does once the
    /// file's first bytes are read: so as soon as the stream is made.
    static func prepare(_ stream: UnsafeMutablePointer<GtkMediaStream>, rate: Double) {
        guard let player = GStreamer.player(of: stream) else { return }
        if let pipeline = ObjectProperty.object(player, "pipeline") {
            defer { g_object_unref(pipeline) }
            if let existing = ObjectProperty.object(pipeline, "audio-filter") {
                g_object_unref(existing)
            } else if let scaletempo = GStreamer.shared?.makeElement("scaletempo", nil) {
                // Owned here until the playbin holds it.
                g_object_ref_sink(scaletempo)
                ObjectProperty.setObject(pipeline, "audio-filter", scaletempo)
                g_object_unref(scaletempo)
            }
        }
        set(rate, on: stream)
    }

    /// Plays `stream` at `rate`, from where it is.
    static func set(_ rate: Double, on stream: UnsafeMutablePointer<GtkMediaStream>) {
        guard let player = GStreamer.player(of: stream), ObjectProperty.get(player, "rate", as: Double.self) != rate else { return }
        ObjectProperty.set(player, "rate", rate)
    }

    /// The speed `stream` plays at, when it can be known.
    static func rate(of stream: UnsafeMutablePointer<GtkMediaStream>) -> Double? {
        GStreamer.player(of: stream).map { ObjectProperty.get($0, "rate", as: Double.self) }
    }

    /// The pitch-keeping filter of `stream`'s playbin, with a reference of the caller's.
    static func audioFilter(of stream: UnsafeMutablePointer<GtkMediaStream>) -> gpointer? {
        guard let player = GStreamer.player(of: stream), let pipeline = ObjectProperty.object(player, "pipeline") else { return nil }
        defer { g_object_unref(pipeline) }
        return ObjectProperty.object(pipeline, "audio-filter")
    }
}
