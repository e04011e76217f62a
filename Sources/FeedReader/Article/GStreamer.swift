import CGtk
import Foundation
import RefreshGtk

/// The few GStreamer functions the player needs, from the libraries GTK's media backend loaded:
/// the reader neither links GStreamer nor loads it before a file is played.
struct GStreamer: Sendable {
    static let shared: GStreamer? = GStreamer()

    /// `gst_element_factory_make`: a new element of the named factory, floating.
    let makeElement: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> gpointer?
    /// `gst_player_stop`: asks the player's thread to stop, and the player to say nothing more
    /// than that it stopped.
    private let stopPlayer: @convention(c) (gpointer?) -> Void

    private init?() {
        // GTK's media backend links both libraries: loaded once a file was opened.
        guard let core = dlopen("libgstreamer-1.0.so.0", RTLD_NOW | RTLD_NOLOAD),
              let player = dlopen("libgstplayer-1.0.so.0", RTLD_NOW | RTLD_NOLOAD),
              let make = dlsym(core, "gst_element_factory_make"), let stop = dlsym(player, "gst_player_stop") else { return nil }
        makeElement = unsafeBitCast(make, to: (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> gpointer?).self)
        stopPlayer = unsafeBitCast(stop, to: (@convention(c) (gpointer?) -> Void).self)
    }

    /// Closes `stream` (GTK's GStreamer media file) and lets go of the caller's reference,
    /// without the main thread ever waiting on GStreamer; false, and nothing done, for a stream
    /// of another backend or one not followed (``follow(_:)``).
    ///
    /// Freeing the media file frees its GstPlayer, whose GstPlay joins its own thread, and that
    /// thread waits for as long as a source is held up in a change of state (a host or a network
    /// mount that stalls, a file that does not open), and may start its pipeline again until it
    /// is told to stop: on the main thread, the window froze until then, for good at worst. So
    /// the player is kept and told to stop, GTK lets go of it, and the player is let go on the
    /// main thread only once it says it stopped (at once if it had), when GstPlay's thread has
    /// nothing left to do and ends at once.
    @MainActor
    func close(_ stream: UnsafeMutablePointer<GtkMediaStream>) -> Bool {
        guard let player = Self.player(of: stream), g_object_get_data(cast(player), Self.stateKey) != nil else { return false }
        g_object_ref(player)
        let stopped = Self.hasStopped(player)
        stopPlayer(player)
        gtk_media_file_clear(UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GtkMediaFile.self))
        g_object_unref(cast(stream))
        if stopped {
            Self.releaseSoon(player)
        } else {
            g_object_set_data(cast(player), Self.releaseKey, player)
        }
        return true
    }

    /// Where a followed player keeps its last state (`GstPlayerState` + 1, so that none is nil),
    /// and whether it is to be let go once stopped.
    private static let stateKey = "feed-reader-player-state"
    private static let releaseKey = "feed-reader-release-when-stopped"
    /// `GST_PLAYER_STATE_STOPPED` and `GST_PLAYER_STATE_BUFFERING`.
    private static let (stoppedState, bufferingState): (Int32, Int32) = (0, 1)

    /// Keeps the state of `stream`'s GstPlayer (GTK's GStreamer media file, just made), which
    /// ``close(_:)`` needs; its thread's news reaches the main thread.
    @MainActor
    static func follow(_ stream: UnsafeMutablePointer<GtkMediaStream>) {
        guard let player = player(of: stream) else { return }
        // GTK has asked a new player to open its file: it is starting until it says otherwise.
        g_object_set_data(cast(player), stateKey, gpointer(bitPattern: Int(bufferingState) + 1))
        let changed: @convention(c) (gpointer?, Int32, gpointer?) -> Void = { player, state, _ in
            guard let player else { return }
            g_object_set_data(cast(player), GStreamer.stateKey, gpointer(bitPattern: Int(state) + 1))
            guard state == GStreamer.stoppedState, g_object_get_data(cast(player), GStreamer.releaseKey) != nil else { return }
            g_object_set_data(cast(player), GStreamer.releaseKey, nil)
            GStreamer.releaseSoon(player)
        }
        g_signal_connect_data(player, "state-changed", unsafeBitCast(changed, to: GCallback.self), nil, nil, GConnectFlags(0))
    }

    /// Whether `player` said it stopped, last.
    private static func hasStopped(_ player: gpointer) -> Bool {
        Int(bitPattern: g_object_get_data(cast(player), stateKey)) == Int(stoppedState) + 1
    }

    /// Lets go of `player` from the main loop, outside the signal that may be telling it stopped.
    private static func releaseSoon(_ player: gpointer) {
        g_idle_add({ player in
            g_object_unref(player)
            return 0
        }, player)
    }

    /// The GstPlayer GTK plays `stream` with, when it is GTK's GStreamer media file: the one field
    /// GtkGstMediaFile adds to GtkMediaFile, used only when the stream is of that type and the
    /// field holds a GstPlayer.
    @MainActor
    static func player(of stream: UnsafeMutablePointer<GtkMediaStream>) -> gpointer? {
        guard String(cString: g_type_name_from_instance(cast(stream))) == "GtkGstMediaFile" else { return nil }
        let playerType = g_type_from_name("GstPlayer")
        guard playerType != 0,
              let player = UnsafeMutableRawPointer(stream).advanced(by: MemoryLayout<GtkMediaFile>.stride).load(as: gpointer?.self),
              g_type_check_instance_is_a(player.assumingMemoryBound(to: GTypeInstance.self), playerType) != 0 else { return nil }
        return player
    }
}
