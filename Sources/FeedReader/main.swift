import CGtk
import AppSupport
import CMalloc
import Foundation
import RefreshGtk

// Two malloc arenas, not one a thread up to 8 a core: 1.6 MiB off the first frame (docs/performance.md, "The first frame's pages").
mallopt(M_ARENA_MAX, 2)

// The command line's messages (--help, a wrong option) in the user's language: GTK's own
// set-up, which would do this, runs only once a window is to open.
setlocale(LC_ALL, "")
// A language chosen in Preferences reaches GTK's and libadwaita's texts through LANGUAGE, which
// must exist before any thread does to be changed safely later.
GettextLanguage.prepare()

// With the cairo renderer forced (software rendering: virtual machines, remote X, CI), GDK would
// still set up OpenGL when it opens the display, loading Mesa's llvmpipe: some 45 MB of resident
// libLLVM and a slower start, for a context nothing draws with. Tell it not to.
if ProcessInfo.processInfo.environment["GSK_RENDERER"] == "cairo" {
    let flags = ProcessInfo.processInfo.environment["GDK_DEBUG"].map { $0 + "," } ?? ""
    setenv("GDK_DEBUG", flags + "gl-disable", 1)
}

MainQueueBridge.install()
exit(FeedReaderApp().run())
