import RefreshCore
@testable import RefreshGtk

/// A shown test window with a NormalHeader whose refreshes end after `endAfter` seconds.
@MainActor
func makeWindow(endAfter: Double? = 0.3) -> (TestWindow, NormalHeader, Recorder) {
    let window = TestWindow()
    let header = NormalHeader()
    header.lastUpdatedFile = temporaryDirectory().appendingPathComponent("settings.ini").path
    header.link(to: window.view)
    let recorder = Recorder(header, endAfter: endAfter)
    window.present()
    return (window, header, recorder)
}
