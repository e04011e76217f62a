import CGtk
import Foundation

/// WebKitGTK, loaded when the first article is shown instead of with the app. Linked, it and the
/// libraries it needs (JavaScriptCore, GStreamer, speech synthesis: 86 of the app's 198) were
/// loaded and relocated before `main`, the largest share of the start-up's CPU time, for a view
/// that only the first article makes.
struct WebKit: Sendable {
    /// The library's soname, as Debian's libwebkitgtk-6.0-4 installs it.
    static let library = "libwebkitgtk-6.0.so.4"

    /// WebKitGTK's functions, loaded on first use; nil when the library could not be loaded.
    static let shared: WebKit? = WebKit()

    // WebKitPolicyDecisionType, WebKitNavigationType and WebKitLoadEvent values (webkit/*.h).
    static let policyNavigationAction: UInt32 = 0
    static let policyNewWindowAction: UInt32 = 1
    static let navigationLinkClicked: UInt32 = 0
    static let navigationOther: UInt32 = 5
    static let loadFinished: UInt32 = 3

    typealias Settings = OpaquePointer
    typealias SetFlag = @convention(c) (Settings?, gboolean) -> Void

    let webViewNew: @convention(c) () -> UnsafeMutablePointer<GtkWidget>?
    let webViewGetSettings: @convention(c) (gpointer?) -> Settings?
    let webViewLoadHTML: @convention(c) (gpointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void
    let webViewEvaluateJavaScript: @convention(c) (gpointer?, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?,
                                                   UnsafePointer<CChar>?, OpaquePointer?, GAsyncReadyCallback?, gpointer?) -> Void
    let webViewEvaluateJavaScriptFinish: @convention(c) (gpointer?, OpaquePointer?,
                                                         UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> OpaquePointer?
    let valueToBoolean: @convention(c) (OpaquePointer?) -> gboolean
    let setDefaultFontFamily: @convention(c) (Settings?, UnsafePointer<CChar>?) -> Void
    let setSansSerifFontFamily: @convention(c) (Settings?, UnsafePointer<CChar>?) -> Void
    let setDefaultFontSize: @convention(c) (Settings?, UInt32) -> Void
    let setEnableJavaScript: SetFlag
    let setEnableJavaScriptMarkup: SetFlag
    let setEnableHTML5LocalStorage: SetFlag
    let setEnableHTML5Database: SetFlag
    let setEnableWebGL: SetFlag
    let setEnableWebAudio: SetFlag
    let setEnableMedia: SetFlag
    let setEnableDeveloperExtras: SetFlag
    let setJavaScriptCanOpenWindowsAutomatically: SetFlag
    let setAutoLoadImages: SetFlag
    let navigationPolicyDecisionGetNavigationAction: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let navigationActionGetRequest: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let navigationActionGetNavigationType: @convention(c) (OpaquePointer?) -> UInt32
    let uriRequestGetURI: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let policyDecisionUse: @convention(c) (OpaquePointer?) -> Void
    let policyDecisionIgnore: @convention(c) (OpaquePointer?) -> Void

    /// Loads the library (kept loaded for good) and looks up every function; nil if any is missing.
    private init?() {
        guard let handle = dlopen(Self.library, RTLD_NOW | RTLD_GLOBAL) else { return nil }
        /// The function `name` in the library or the ones it loaded (JavaScriptCore's `jsc_`).
        func function<F>(_ name: String) throws -> F {
            guard let address = dlsym(handle, name) else { throw MissingFunction() }
            return unsafeBitCast(address, to: F.self)
        }
        do {
            webViewNew = try function("webkit_web_view_new")
            webViewGetSettings = try function("webkit_web_view_get_settings")
            webViewLoadHTML = try function("webkit_web_view_load_html")
            webViewEvaluateJavaScript = try function("webkit_web_view_evaluate_javascript")
            webViewEvaluateJavaScriptFinish = try function("webkit_web_view_evaluate_javascript_finish")
            valueToBoolean = try function("jsc_value_to_boolean")
            setDefaultFontFamily = try function("webkit_settings_set_default_font_family")
            setSansSerifFontFamily = try function("webkit_settings_set_sans_serif_font_family")
            setDefaultFontSize = try function("webkit_settings_set_default_font_size")
            setEnableJavaScript = try function("webkit_settings_set_enable_javascript")
            setEnableJavaScriptMarkup = try function("webkit_settings_set_enable_javascript_markup")
            setEnableHTML5LocalStorage = try function("webkit_settings_set_enable_html5_local_storage")
            setEnableHTML5Database = try function("webkit_settings_set_enable_html5_database")
            setEnableWebGL = try function("webkit_settings_set_enable_webgl")
            setEnableWebAudio = try function("webkit_settings_set_enable_webaudio")
            setEnableMedia = try function("webkit_settings_set_enable_media")
            setEnableDeveloperExtras = try function("webkit_settings_set_enable_developer_extras")
            setJavaScriptCanOpenWindowsAutomatically = try function("webkit_settings_set_javascript_can_open_windows_automatically")
            setAutoLoadImages = try function("webkit_settings_set_auto_load_images")
            navigationPolicyDecisionGetNavigationAction = try function("webkit_navigation_policy_decision_get_navigation_action")
            navigationActionGetRequest = try function("webkit_navigation_action_get_request")
            navigationActionGetNavigationType = try function("webkit_navigation_action_get_navigation_type")
            uriRequestGetURI = try function("webkit_uri_request_get_uri")
            policyDecisionUse = try function("webkit_policy_decision_use")
            policyDecisionIgnore = try function("webkit_policy_decision_ignore")
        } catch {
            return nil
        }
    }

    private struct MissingFunction: Error {}
}
