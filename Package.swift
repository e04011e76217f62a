// swift-tools-version:6.1
import PackageDescription

// The library, RefreshCore and RefreshGtk (with GTK's C API, CGtk), is the package in Library/:
// apps adopt it alone. This package is the feed reader, the gallery, the bench and every test.
let cGtk: Target.Dependency = .product(name: "CGtk", package: "Library")
let refreshCore: Target.Dependency = .product(name: "RefreshCore", package: "Library")
let refreshGtk: Target.Dependency = .product(name: "RefreshGtk", package: "Library")
// The reader's plumbing (settings in a GKeyFile, data folders, gettext domains, message
// catalogs): a target of this package, so nothing of it reaches an app adopting the library.
let appSupport: Target.Dependency = "AppSupport"
// `feed-reader-commands` as users run it (release builds: the package's and the bench's): linked by lld
// with packed relative relocations (DT_RELR: 16 KB where gold wrote 2 MB of RELA entries, read
// at every start), the functions its window-less commands run laid out side by side
// (packaging/feed-reader.order, made by meson-helpers/order-functions), so that a sync touches
// few pages of the program (docs/performance.md, Sync).
let commandsLinking: [LinkerSetting] = [.unsafeFlags([
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/packaging/feed-reader.order",
    // A function renamed since the order was made is laid out as if unlisted.
    "-Xlinker", "--no-warn-symbol-ordering",
], .when(configuration: .release))]
// `feed-reader-window` in release builds: linked by lld with packed relative relocations as well,
// as gold's 2 MB of RELA entries, read at every start, stayed resident in the window too
// (docs/performance.md, "The first frame's pages").
let windowLinking: [LinkerSetting] = [.unsafeFlags([
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
], .when(configuration: .release))]
// Our modules' functions each in a section of its own, which that order can move alone.
let orderedCode: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
// GLib alone, for the command-line program, which must not load GTK.
let cGLib: Target.Dependency = "CGLib"

let package = Package(
    name: "RefreshGtk",
    products: [
        .library(name: "FeedCore", targets: ["FeedCore"]),
        // `feed-reader` links the C library alone and execs `feed-reader-window` (installed in
        // PREFIX/libexec/feed-reader) for a command line without options, the window's, and
        // `feed-reader-commands` (beside it) for any other: that one runs the window-less commands
        // in a process without GTK and execs the window program for the rest (--help, --extract).
        .executable(name: "feed-reader", targets: ["FeedReaderLauncher"]),
        .executable(name: "feed-reader-commands", targets: ["FeedReaderCommands"]),
        .executable(name: "feed-reader-window", targets: ["FeedReader"]),
        .executable(name: "refresh-bench", targets: ["RefreshBench"]),
        .executable(name: "feedcore-refresh", targets: ["FeedCoreRefresh"]),
        .executable(name: "refresh-gallery", targets: ["RefreshGallery"]),
        .executable(name: "pull-to-refresh-example", targets: ["PullToRefreshExample"]),
    ],
    dependencies: [
        .package(path: "Library"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // FeedCore talks to libcurl directly: URLSession on Linux decompresses every body and queues
        // data for its delegate faster than the delegate can refuse it, so no size cap could hold.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // glibc's malloc tuning for the reader's programs (the window-less commands', the window's).
        .systemLibrary(name: "CMalloc"),
        // glibc's own gettext, for the launcher, which loads no library for it.
        .systemLibrary(name: "CIntl"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // Sync accounts' passwords go to the Secret Service (GNOME Keyring, KWallet) through libsecret.
        .systemLibrary(name: "CSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        // Rules' regular expressions, with PCRE2's limit on the work one match may take.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        // WebKitGTK's headers and library for FeedReaderTests, which look into the article's web
        // view; the app itself loads the library when it first shows an article.
        // libadwaita for the reader's window, dialogs and style; the refresh library stays GTK-only.
        .systemLibrary(name: "CAdw", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),
        .systemLibrary(name: "CWebKit", pkgConfig: "webkitgtk-6.0", providers: [.apt(["libwebkitgtk-6.0-dev"])]),
        // GLib's C API alone, for AppSupport and the reader's programs that load no GTK.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "AppSupport", dependencies: ["CGLib"]),
        .target(
            name: "FeedCore",
            dependencies: ["CCurl", "CZlib", "CLibXML2", "CSecret", "CPCRE2", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: orderedCode
        ),
        // The typed signal connections only the reader needs, beside RefreshGtk's own.
        .target(name: "AppSignals", dependencies: [cGtk, refreshGtk]),
        // The command-line commands and the messages they share with the window: FeedCore and
        // AppSupport's gettext domain and GLib, nothing of GTK's.
        .target(name: "ReaderCommands", dependencies: [appSupport, cGLib, "FeedCore"], swiftSettings: orderedCode),
        // Nothing but the Swift runtime and the C library: what it loads, every window start pays.
        .executableTarget(name: "FeedReaderLauncher", dependencies: ["CIntl"]),
        .executableTarget(
            name: "FeedReaderCommands",
            dependencies: ["ReaderCommands", "FeedCore", cGLib, "CMalloc"],
            swiftSettings: orderedCode,
            linkerSettings: commandsLinking
        ),
        .executableTarget(
            name: "FeedReader",
            // Not CWebKit: the article view loads WebKitGTK when it first shows an article (Article/WebKit.swift).
            dependencies: [cGtk, cGLib, "CAdw", refreshCore, refreshGtk, appSupport, "AppSignals", "FeedCore", "ReaderCommands", "CMalloc"],
            linkerSettings: windowLinking
        ),
        .executableTarget(
            name: "RefreshGallery",
            dependencies: [cGtk, refreshCore, refreshGtk, appSupport]
        ),
        // The getting-started article's app: GTK and RefreshGtk only, as an adopting app has them.
        .executableTarget(
            name: "PullToRefreshExample",
            dependencies: [cGtk, refreshGtk],
            path: "Examples/PullToRefresh"
        ),
        // FeedCore's side of refresh-bench's refresh comparison, in a process without GTK.
        .executableTarget(name: "FeedCoreRefresh", dependencies: ["FeedCore"]),
        .executableTarget(
            name: "RefreshBench",
            dependencies: [cGtk, refreshCore, refreshGtk, appSupport, "FeedCore", "GtkInspection"],
            // The probe the bench loads into feed-reader; the bench compiles it (ReaderProbe.swift).
            exclude: ["ReaderProbe"]
        ),
        // The event controller lookup and list layout counter that the GTK tests and refresh-bench share.
        .target(name: "GtkInspection", dependencies: [cGtk]),
        // libFuzzer's entry point for the feed parsers: ./meson-helpers/fuzz links it with libFuzzer.
        .target(name: "FeedCoreFuzz", dependencies: ["FeedCore"], path: "Tests/FeedCoreFuzz", exclude: ["lsan-suppressions.txt"]),
        .target(name: "TestProcesses", path: "Tests/TestProcesses"),
        .target(
            name: "TestSupport",
            dependencies: [cGtk, refreshGtk, "GtkInspection", "CZlib", "TestProcesses"],
            path: "Tests/TestSupport"
        ),
        // The child process RetentionCrashSafetyTests kills while it prunes a store.
        .executableTarget(name: "StorePruner", dependencies: ["FeedCore"], path: "Tests/StorePruner"),
        .testTarget(name: "RefreshCoreTests", dependencies: [refreshCore, "TestProcesses"]),
        // Runs the built refresh-bench --quick: every figure comes out; timings are not judged. And
        // kills feedcore-refresh mid-write, and StorePruner mid-prune, to check the database stays whole.
        .testTarget(name: "RefreshBenchTests", dependencies: ["RefreshBench", "FeedCore", "TestSupport"]),
        .testTarget(
            name: "RefreshGtkTests",
            dependencies: [cGtk, refreshCore, refreshGtk, appSupport, "RefreshGallery", "PullToRefreshExample", "TestSupport"]
        ),
        .testTarget(name: "FeedCoreTests", dependencies: ["FeedCore", "TestSupport", "CZlib"], exclude: ["Corpus"]),
        .testTarget(
            name: "FeedReaderTests",
            dependencies: ["FeedReader", "FeedCore", refreshCore, refreshGtk, appSupport, cGtk, "CAdw", "CWebKit", "TestSupport"],
            // Web pages written for the full-article tests, read from the source tree.
            exclude: ["ExtractionPages"]
        ),
    ]
)
