// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "RefreshGtk",
    products: [
        .library(name: "RefreshCore", targets: ["RefreshCore"]),
        .library(name: "RefreshGtk", targets: ["RefreshGtk"]),
        .library(name: "FeedCore", targets: ["FeedCore"]),
        .executable(name: "feed-reader", targets: ["FeedReader"]),
        .executable(name: "refresh-bench", targets: ["RefreshBench"]),
        .executable(name: "refresh-gallery", targets: ["RefreshGallery"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // FeedCore talks to libcurl directly: URLSession on Linux decompresses every body and queues
        // data for its delegate faster than the delegate can refuse it, so no size cap could hold.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // The feed reader's article view; only FeedReader depends on it, never RefreshGtk.
        .systemLibrary(name: "CWebKit", pkgConfig: "webkitgtk-6.0", providers: [.apt(["libwebkitgtk-6.0-dev"])]),
        .target(name: "RefreshCore"),
        .target(name: "RefreshGtk", dependencies: ["CGtk", "RefreshCore"]),
        .target(
            name: "FeedCore",
            dependencies: ["CCurl", "CZlib", "CLibXML2", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .executableTarget(
            name: "FeedReader",
            dependencies: ["CGtk", "CWebKit", "RefreshCore", "RefreshGtk", "FeedCore"]
        ),
        .executableTarget(
            name: "RefreshGallery",
            dependencies: ["CGtk", "RefreshCore", "RefreshGtk"]
        ),
        .executableTarget(
            name: "RefreshBench",
            dependencies: ["CGtk", "RefreshCore", "RefreshGtk", "FeedCore", "GtkInspection"],
            // The probe the bench loads into feed-reader; the bench compiles it (ReaderProbe.swift).
            exclude: ["ReaderProbe"]
        ),
        // The event controller lookup and list layout counter that the GTK tests and refresh-bench share.
        .target(name: "GtkInspection", dependencies: ["CGtk"]),
        // libFuzzer's entry point for the feed parsers: ./meson-helpers/fuzz links it with libFuzzer.
        .target(name: "FeedCoreFuzz", dependencies: ["FeedCore"], path: "Tests/FeedCoreFuzz", exclude: ["lsan-suppressions.txt"]),
        .target(
            name: "TestSupport",
            dependencies: ["CGtk", "RefreshGtk", "GtkInspection"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "RefreshCoreTests", dependencies: ["RefreshCore"]),
        // Runs the built refresh-bench --quick: every figure comes out; timings are not judged.
        .testTarget(name: "RefreshBenchTests", dependencies: ["RefreshBench"]),
        .testTarget(
            name: "RefreshGtkTests",
            dependencies: ["CGtk", "RefreshCore", "RefreshGtk", "RefreshGallery", "TestSupport"]
        ),
        .testTarget(name: "FeedCoreTests", dependencies: ["FeedCore", "TestSupport", "CZlib"], exclude: ["Corpus"]),
        .testTarget(
            name: "FeedReaderTests",
            dependencies: ["FeedReader", "FeedCore", "RefreshCore", "RefreshGtk", "CGtk", "CWebKit", "TestSupport"]
        ),
    ]
)
