// swift-tools-version:6.1
import PackageDescription

// RefreshGtk, the library: pull to refresh for GTK 4. A package of its own, so that an app
// depending on it resolves and builds GTK's bindings and these two modules only, nothing of
// the feed reader that shares the repository (whose package depends on this one by path).
let package = Package(
    name: "RefreshGtkLibrary",
    products: [
        .library(name: "RefreshCore", targets: ["RefreshCore"]),
        .library(name: "RefreshGtk", targets: ["RefreshGtk"]),
        // GTK's C API as RefreshGtk sees it, for apps that call GTK themselves.
        .library(name: "CGtk", targets: ["CGtk"]),
        // The plumbing RefreshGtk stands on and the feed reader shares: settings in a GKeyFile,
        // data folders, gettext domains. A product only so that the reader's package can import
        // it; RefreshGtk imports it `internal`ly, so an adopting app sees none of it.
        .library(name: "AppSupport", targets: ["AppSupport"]),
        // GLib's C API as AppSupport sees it, for the reader's programs that link no GTK.
        .library(name: "CGLib", targets: ["CGLib"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        .target(name: "RefreshCore"),
        // GLib only: the reader's command-line program uses it without loading GTK.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "AppSupport", dependencies: ["CGLib"]),
        .target(name: "RefreshGtk", dependencies: ["CGtk", "RefreshCore", "AppSupport"]),
    ]
)
