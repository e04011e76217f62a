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
    ],
    targets: [
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        .target(name: "RefreshCore"),
        .target(name: "RefreshGtk", dependencies: ["CGtk", "RefreshCore"]),
    ]
)
