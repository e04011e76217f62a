import CGtk
import Foundation
import RefreshGtk

/// The few GStreamer functions the player needs, from the libraries GTK's media backend loaded:
/// the reader neither links GStreamer nor loads it before a file is played.
struct GStreamer: Sendable {
    static let shared: GStreamer? = GStreamer()

    /// `gst_element_factory_make`: a new element of the named factory, floating.
    let makeElement: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> gpointer?

    private init?() {
        guard let handle = dlopen("libgstreamer-1.0.so.0", RTLD_NOW | RTLD_NOLOAD),
              let make = dlsym(handle, "gst_element_factory_make") else { return nil }
        makeElement = unsafeBitCast(make, to: (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> gpointer?).self)
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
