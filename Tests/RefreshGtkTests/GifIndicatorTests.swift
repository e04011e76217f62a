import CGtk
import Foundation
import RefreshCore
import XCTest
@testable import RefreshGallery
@testable import RefreshGtk

/// Gif variants: images per state from files or paintables, following the pull and looping.
final class GifIndicatorTests: XCTestCase {
    func testImageFilesGrowEveryGifComponentToTheFirstImagesHeight() throws {
        try onMain {
            let header = GifHeader()
            XCTAssertEqual(header.extent, 54)
            try header.setImages(contentsOf: GalleryFrames.paths(for: .idle), for: .idle)
            XCTAssertEqual(header.gifIndicator.imageCount(for: .idle), 10)
            XCTAssertEqual(header.extent, 60, "the gallery's frames are 60 pixels tall")

            let backFooter = GifBackFooter()
            try backFooter.setImages(contentsOf: GalleryFrames.paths(for: .refreshing), for: .refreshing)
            XCTAssertEqual(backFooter.extent, 60)

            let gif = GifIndicator()
            try gif.setImages(contentsOf: GalleryFrames.paths(for: .refreshing), for: .refreshing)
            let autoFooter = GifAutoFooter(indicator: gif)
            XCTAssertEqual(autoFooter.extent, 60, "images given before the footer is made count too")

            XCTAssertThrowsError(try header.setImages(contentsOf: ["/nonexistent/frame.png"], for: .pulling)) { error in
                XCTAssertTrue("\(error)".hasPrefix("/nonexistent/frame.png: "), "\(error)")
            }
            XCTAssertEqual(header.gifIndicator.imageCount(for: .pulling), 0)
        }
    }

    func testPaintablesCanBeGivenDirectly() {
        onMain {
            let footer = GifBackFooter()
            let frames = [solidTexture(width: 30, height: 70), solidTexture(width: 30, height: 70)]
            footer.setImages(frames, for: .refreshing)
            frames.forEach { g_object_unref(cast($0)) }
            XCTAssertEqual(footer.gifIndicator.imageCount(for: .refreshing), 2)
            XCTAssertEqual(footer.extent, 70)
            XCTAssertEqual(footer.gifIndicator.imageCount(for: .willRefresh), 2, "willRefresh shows the refreshing images")
        }
    }

    func testWhileIdleTheImageFollowsThePull() {
        onMain {
            let (window, header, _) = makeGifHeaderWindow(endAfter: nil)
            defer { window.close() }
            XCTAssertEqual(header.extent, 60)
            window.drag(pulling: .top, by: 22, steps: 4, release: false)
            GtkTestEnvironment.wait(until: { shownFrame(header) == Int((10 * header.pullingPercent).rounded(.down)) },
                                    "the image following the pull")
            let early = shownFrame(header)
            let earlyInk = inkInImageArea(window, header, name: "gif-header-idle-early")
            XCTAssertEqual(header.state, .idle)
            let earlyPercent = header.pullingPercent
            RealInput.move(dy: 28)
            GtkTestEnvironment.wait(until: {
                header.pullingPercent > earlyPercent && shownFrame(header) == Int((10 * header.pullingPercent).rounded(.down))
            }, "the image following the longer pull")
            XCTAssertEqual(header.state, .idle)
            let later = shownFrame(header)
            XCTAssertGreaterThan(later ?? 0, early ?? 10, "a longer pull shows a later image")
            XCTAssertGreaterThan(inkInImageArea(window, header, name: "gif-header-idle-later"), earlyInk + 200,
                                 "the ball drawn is bigger")
            RealInput.release()
        }
    }

    func testPullingAndRefreshingLoopTheirImagesAtATenthOfASecondEach() {
        onMain {
            let (window, header, recorder) = makeGifHeaderWindow(endAfter: nil)
            defer { window.close() }
            window.drag(pulling: .top, release: false)
            GtkTestEnvironment.waitForFrames(of: window.window)
            XCTAssertEqual(header.state, .pulling)
            XCTAssertTrue(header.indicator.isAnimating(header.indicatorModel, at: MainThread.now))
            XCTAssertEqual(Set(framesShown(header, for: 0.35)), [0, 1, 2], "three pulling images loop")
            RealInput.release()
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .refreshing && header.machine.animation == nil })
            XCTAssertEqual(recorder.refreshes, 1)
            let seen = framesShown(header, for: 0.85)
            XCTAssertEqual(Set(seen), Set(0..<8), "eight refreshing images in 0.8 s")
            let first = RenderedImage(window: window.window, name: "gif-header-refreshing-a")
            let firstShown = shownFrame(header)
            GtkTestEnvironment.wait(until: { shownFrame(header) != firstShown }, "the next refreshing image")
            GtkTestEnvironment.waitForFrames(of: window.window)
            let second = RenderedImage(window: window.window, name: "gif-header-refreshing-b")
            XCTAssertGreaterThan(first.differenceFrom(second, shiftedBy: (0, 0), rows: 0..<60), 0.001,
                                 "what is drawn changes as the images loop")

            try? header.setImages(contentsOf: GalleryFrames.paths(for: .refreshing), duration: 3.2, for: .refreshing)
            let slow = framesShown(header, for: 0.35)
            XCTAssertLessThanOrEqual(Set(slow).count, 2, "a 3.2 s loop of eight images changes every 0.4 s")
            header.endRefreshing()
            XCTAssertTrue(recorder.waitForCycle(of: header))
        }
    }

    func testTheImageSitsTwentyPixelsBeforeTheTextsAndIsCentredWithoutThem() {
        onMain {
            let (window, header, _) = makeGifHeaderWindow(endAfter: nil)
            defer { window.close() }
            header.beginRefreshing()
            XCTAssertTrue(GtkTestEnvironment.iterate { header.state == .refreshing && header.machine.animation == nil })
            GtkTestEnvironment.waitForFrames(of: window.window)
            let withTexts = RenderedImage(window: window.window, name: "gif-header-with-texts")
            let clusters = inkClusters(withTexts, rows: 0..<60)
            XCTAssertGreaterThanOrEqual(clusters.count, 2, "the image, then the texts: \(clusters)")
            if clusters.count >= 2 {
                let image = clusters[0]
                // The ball's ink stops 7 pixels inside its 60-pixel image.
                XCTAssertEqual(image.upperBound - image.lowerBound, 46, accuracy: 3, "one ball: \(clusters)")
                let gap = clusters[1].lowerBound - image.upperBound
                XCTAssertEqual(gap, 20 + 7, accuracy: 4, "20 pixels from the image to the texts: \(clusters)")
            }

            header.stateLabelHidden = true
            header.showsLastUpdated = false
            GtkTestEnvironment.waitForFrames(of: window.window)
            let alone = RenderedImage(window: window.window, name: "gif-header-texts-hidden")
            let only = inkClusters(alone, rows: 0..<60)
            XCTAssertEqual(only.count, 1, "the image alone: \(only)")
            if let ball = only.first {
                XCTAssertEqual(Double(ball.lowerBound + ball.upperBound) / 2, window.viewWidth / 2, accuracy: 2,
                               "centred")
            }
            XCTAssertEqual(header.accessibleText, "Loading…", "hidden texts are still read out")
        }
    }

    func testGifFootersRunWholeCyclesAndShowTheirImagesWhileLoading() {
        onMain {
            let window = ContentWindow(.listView)
            defer { window.close() }
            let footer = GifBackFooter()
            for state in [RefreshState.idle, .pulling, .refreshing] {
                try? footer.setImages(contentsOf: GalleryFrames.paths(for: state), for: state)
            }
            footer.link(to: window.view)
            let recorder = Recorder(footer, endAfter: 0.4)
            window.present()
            window.pull(footer, with: .touchpad)
            XCTAssertTrue(GtkTestEnvironment.iterate { footer.state == .refreshing && footer.machine.animation == nil })
            XCTAssertEqual(window.contentOrigin.y, -60, "held at the images' height")
            XCTAssertNotNil(shownFrame(footer))
            XCTAssertTrue(recorder.waitForCycle(of: footer), "states so far: \(recorder.states)")
            XCTAssertEqual(recorder.refreshes, 1)

            let autoWindow = ContentWindow(.listView)
            defer { autoWindow.close() }
            let autoFooter = GifAutoFooter()
            try? autoFooter.setImages(contentsOf: GalleryFrames.paths(for: .refreshing), for: .refreshing)
            autoFooter.link(to: autoWindow.view)
            let loads = Recorder(autoFooter, endAfter: 0.4)
            autoWindow.present()
            XCTAssertNil(shownFrame(autoFooter), "no image while idle, as MJRefresh's Gif auto footer")
            autoWindow.scroll(to: .bottom)
            XCTAssertTrue(GtkTestEnvironment.iterate { autoFooter.state == .refreshing }, "arriving at the end loads")
            XCTAssertNotNil(shownFrame(autoFooter))
            XCTAssertEqual(autoFooter.footerMachine.offset, 60, "fully shown at the images' height")
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.afterEndings == 1 && autoFooter.state == .idle })
            autoWindow.drag(pulling: .bottom)
            XCTAssertTrue(GtkTestEnvironment.iterate { loads.afterEndings == 2 && autoFooter.state == .idle },
                          "a drag up at the end loads again")
            XCTAssertEqual(loads.refreshes, 2)
        }
    }
}

@MainActor
private func makeGifHeaderWindow(endAfter: Double?) -> (ContentWindow, GifHeader, Recorder) {
    let window = ContentWindow(.listView)
    let header = GifHeader()
    for state in [RefreshState.idle, .pulling, .refreshing] {
        try? header.setImages(contentsOf: GalleryFrames.paths(for: state), for: state)
    }
    header.lastUpdatedFile = temporaryDirectory().appendingPathComponent("settings.ini").path
    header.link(to: window.view)
    let recorder = Recorder(header, endAfter: endAfter)
    window.present()
    return (window, header, recorder)
}

/// The image a Gif component shows now, if any.
@MainActor
private func shownFrame(_ component: some GifRefreshComponent) -> Int? {
    component.gifIndicator.frameIndex(for: component.indicatorModel, at: MainThread.now)
}

/// The images shown over `seconds`, sampled every 20 ms while the main loop runs.
@MainActor
private func framesShown(_ component: some GifRefreshComponent, for seconds: Double) -> [Int] {
    var seen: [Int] = []
    let end = MainThread.now + seconds
    while MainThread.now < end {
        if let frame = shownFrame(component) { seen.append(frame) }
        // Samples the frame shown every 20 ms: the images change with time, not on an event.
        GtkTestEnvironment.iterate(for: 0.02)
    }
    return seen
}

/// Dark pixels where a pulled header's image is drawn: left of the centred texts.
@MainActor
private func inkInImageArea(_ window: ContentWindow, _ header: GifHeader, name: String) -> Int {
    let image = RenderedImage(window: window.window, name: name)
    let top = Int(header.machine.offset.rounded()) - 60
    return image.darkPixels(x: 0, y: max(0, top), width: Int(window.viewWidth / 2) - 80, height: 60 + min(0, top))
}

/// Runs of columns holding ink (anything clearly darker than the light background, the dimmed
/// last-updated line included) within `rows`, left to right, ignoring gaps under 12 pixels.
@MainActor
private func inkClusters(_ image: RenderedImage, rows: Range<Int>) -> [Range<Int>] {
    var clusters: [Range<Int>] = []
    for x in 0..<image.width
    where image.darkPixels(x: x, y: rows.lowerBound, width: 1, height: rows.count, threshold: 170) > 0 {
        if let last = clusters.last, x - last.upperBound < 12 {
            clusters[clusters.count - 1] = last.lowerBound..<(x + 1)
        } else {
            clusters.append(x..<(x + 1))
        }
    }
    return clusters
}

/// A texture of one colour, as an app might build frames in memory.
@MainActor
private func solidTexture(width: Int, height: Int) -> OpaquePointer {
    let pixels = [UInt8](repeating: 0x80, count: width * height * 4)
    let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
    defer { g_bytes_unref(bytes) }
    return gdk_memory_texture_new(Int32(width), Int32(height), GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, gsize(width * 4))
}
