import CGtk
import Foundation
import RefreshGtk

/// The few GStreamer functions the player needs, from the libraries GTK's media backend loaded:
/// the reader neither links GStreamer nor loads it before a file is played.
struct GStreamer: Sendable {
    static let shared: GStreamer? = GStreamer()

    /// `gst_element_factory_make`: a new element of the named factory, floating.
    let makeElement: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> gpointer?
    /// `gst_element_set_state`: waits while the element's sources and sinks change state.
    private let setState: @convention(c) (gpointer?, Int32) -> Int32
    /// `gst_player_stop`: asks the player's thread to stop, and the player to say nothing more.
    private let stopPlayer: @convention(c) (gpointer?) -> Void
    /// `GST_STATE_NULL`: the pipeline down, its files and connections closed.
    private static let nullState: Int32 = 1

    private init?() {
        // GTK's media backend links both libraries: loaded once a file was opened.
        guard let core = dlopen("libgstreamer-1.0.so.0", RTLD_NOW | RTLD_NOLOAD),
              let player = dlopen("libgstplayer-1.0.so.0", RTLD_NOW | RTLD_NOLOAD),
              let make = dlsym(core, "gst_element_factory_make"), let setState = dlsym(core, "gst_element_set_state"),
              let stop = dlsym(player, "gst_player_stop") else { return nil }
        makeElement = unsafeBitCast(make, to: (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> gpointer?).self)
        self.setState = unsafeBitCast(setState, to: (@convention(c) (gpointer?, Int32) -> Int32).self)
        stopPlayer = unsafeBitCast(stop, to: (@convention(c) (gpointer?) -> Void).self)
    }

    /// Closes `stream` (GTK's GStreamer media file) and lets go of the caller's reference,
    /// without the main thread ever waiting on GStreamer.
    ///
    /// Freeing the media file frees its GstPlayer, whose GstPlay joins its own thread, and that
    /// thread waits for as long as a source is held up in a change of state (a host or a network
    /// mount that stalls, a file that does not open): on the main thread, the window froze until
    /// then, for good at worst. So the player is kept and told to stop, GTK lets go of it, its
    /// pipeline is set down on a thread of its own, which waits as long as it takes, and only
    /// then is the player let go, on the main thread (GstPlay's news reaches it through a source
    /// of the main context, which must not go while it runs), when GstPlay's thread is idle and
    /// ends at once.
    @MainActor
    func close(_ stream: UnsafeMutablePointer<GtkMediaStream>) -> Bool {
        guard let player = Self.player(of: stream), let pipeline = ObjectProperty.object(player, "pipeline") else { return false }
        g_object_ref(player)
        stopPlayer(player)
        gtk_media_file_clear(UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GtkMediaFile.self))
        g_object_unref(cast(stream))
        nonisolated(unsafe) let (stopped, down) = (player, pipeline)
        let setState = setState
        Thread.detachNewThread {
            _ = setState(down, Self.nullState)
            g_object_unref(down)
            Task { @MainActor in g_object_unref(stopped) }
        }
        return true
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
