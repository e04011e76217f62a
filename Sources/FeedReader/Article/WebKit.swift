import CGtk
import Foundation
import RefreshGtk

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
    static let loadCommitted: UInt32 = 2
    static let loadFinished: UInt32 = 3
    /// WebKitCookieAcceptPolicy's WEBKIT_COOKIE_POLICY_ACCEPT_NEVER.
    static let cookiesNever: UInt32 = 1

    typealias Settings = OpaquePointer
    typealias SetFlag = @convention(c) (Settings?, gboolean) -> Void

    let webViewGetType: @convention(c) () -> GType
    let networkSessionNewEphemeral: @convention(c) () -> OpaquePointer?
    let networkSessionGetCookieManager: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let cookieManagerSetAcceptPolicy: @convention(c) (OpaquePointer?, UInt32) -> Void
    let webViewSetZoomLevel: @convention(c) (gpointer?, Double) -> Void
    let webViewGetZoomLevel: @convention(c) (gpointer?) -> Double
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
            webViewGetType = try function("webkit_web_view_get_type")
            networkSessionNewEphemeral = try function("webkit_network_session_new_ephemeral")
            networkSessionGetCookieManager = try function("webkit_network_session_get_cookie_manager")
            cookieManagerSetAcceptPolicy = try function("webkit_cookie_manager_set_accept_policy")
            webViewSetZoomLevel = try function("webkit_web_view_set_zoom_level")
            webViewGetZoomLevel = try function("webkit_web_view_get_zoom_level")
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

    /// A web view in its own network session: ephemeral, so nothing (cookies, cache, HSTS) is
    /// written to disk, and refusing every cookie. An article is our own `about:blank` page, so
    /// every image in it is a third party's, and a tracking pixel's cookie must not come back
    /// with the next entry's pixel.
    func privateWebView() -> UnsafeMutablePointer<GtkWidget>? {
        guard let session = networkSessionNewEphemeral() else { return nil }
        defer { g_object_unref(cast(session)) }
        cookieManagerSetAcceptPolicy(networkSessionGetCookieManager(session), Self.cookiesNever)
        var value = GValue()
        g_value_init(&value, g_type_from_name("WebKitNetworkSession"))
        g_value_set_object(&value, cast(session))
        defer { g_value_unset(&value) }
        var names: [UnsafePointer<CChar>?] = [UnsafePointer(strdup("network-session"))]
        defer { free(UnsafeMutablePointer(mutating: names[0])) }
        let object = g_object_new_with_properties(webViewGetType(), 1, &names, &value)
        return object.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
    }

    private struct MissingFunction: Error {}
}
