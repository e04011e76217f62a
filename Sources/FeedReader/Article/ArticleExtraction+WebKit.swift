import CGtk
import Foundation

/// The WebKitGTK and JavaScriptCore functions extraction needs beyond the article view's
/// (`WebKit`), looked up in the library `WebKit` loaded.
struct ExtractionWebKit: Sendable {
    /// The functions, once WebKitGTK is loaded; nil when it or one of them is missing.
    static let shared: ExtractionWebKit? = WebKit.shared == nil ? nil : ExtractionWebKit()

    let webViewLoadBytes: @convention(c) (gpointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                          UnsafePointer<CChar>?) -> Void
    let setEnablePageCache: WebKit.SetFlag
    let setHardwareAccelerationPolicy: @convention(c) (WebKit.Settings?, UInt32) -> Void
    let valueIsString: @convention(c) (OpaquePointer?) -> gboolean
    let valueToString: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?

    /// WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER: a view never shown needs no GL.
    static let hardwareAccelerationNever: UInt32 = 1

    private init?() {
        // Already loaded by `WebKit`: this only takes another reference to it.
        guard let handle = dlopen(WebKit.library, RTLD_NOW | RTLD_GLOBAL) else { return nil }
        func function<F>(_ name: String) throws -> F {
            guard let address = dlsym(handle, name) else { throw MissingFunction() }
            return unsafeBitCast(address, to: F.self)
        }
        do {
            webViewLoadBytes = try function("webkit_web_view_load_bytes")
            setEnablePageCache = try function("webkit_settings_set_enable_page_cache")
            setHardwareAccelerationPolicy = try function("webkit_settings_set_hardware_acceleration_policy")
            valueIsString = try function("jsc_value_is_string")
            valueToString = try function("jsc_value_to_string")
        } catch {
            return nil
        }
    }

    private struct MissingFunction: Error {}
}
