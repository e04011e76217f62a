import CGtk
import Foundation
import XCTest
@testable import RefreshGtk

/// A window rendered through GTK's own renderer, as pixels and as a PNG to look at.
@MainActor
struct RenderedImage {
    let width: Int
    let height: Int
    private let bytes: [UInt8]

    /// Renders `window` as its next frame draws it and saves it as `name`.png in the test renders folder.
    init(window: UnsafeMutablePointer<GtkWidget>, name: String) {
        // Between frames a window may need a layout first, and then gives no render node.
        GtkTestEnvironment.waitForFrames(of: window)
        let paintable = gtk_widget_paintable_new(window)!
        let width = Double(gtk_widget_get_width(window)), height = Double(gtk_widget_get_height(window))
        let snapshot = gtk_snapshot_new()!
        gdk_paintable_snapshot(paintable, cast(snapshot), width, height)
        let node = gtk_snapshot_free_to_node(snapshot)!
        let renderer = gtk_native_get_renderer(cast(window))!
        let texture = gsk_renderer_render_texture(renderer, node, nil)!
        gsk_render_node_unref(node)
        g_object_unref(cast(paintable))
        self.width = Int(gdk_texture_get_width(texture))
        self.height = Int(gdk_texture_get_height(texture))
        var pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
        gdk_texture_download(texture, &pixels, gsize(self.width * 4))
        bytes = pixels
        let path = Self.folder.appendingPathComponent("\(name).png").path
        _ = gdk_texture_save_to_png(texture, path)
        g_object_unref(cast(texture))
    }

    /// Where renders go: `$REFRESHGTK_TEST_RENDERS`, else a folder under the temporary directory.
    static let folder: URL = {
        let path = ProcessInfo.processInfo.environment["REFRESHGTK_TEST_RENDERS"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("refreshgtk-renders").path
        let url = URL(fileURLWithPath: path)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The blue, green, red and alpha bytes of the pixel at (x, y), premultiplied.
    func pixel(x: Int, y: Int) -> [Int] {
        let index = (y * width + x) * 4
        return bytes[index..<(index + 4)].map(Int.init)
    }

    /// Brightness 0...255 of the pixel at (x, y), alpha composited over black.
    func luminance(x: Int, y: Int) -> Double {
        let index = (y * width + x) * 4
        let (b, g, r) = (Double(bytes[index]), Double(bytes[index + 1]), Double(bytes[index + 2]))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    }

    /// How many pixels of the rectangle are darker than `threshold`: text and glyphs, not background.
    func darkPixels(x: Int, y: Int, width: Int, height: Int, threshold: Double = 110) -> Int {
        var count = 0
        for row in max(0, y)..<min(self.height, y + height) {
            for column in max(0, x)..<min(self.width, x + width) where luminance(x: column, y: row) < threshold {
                count += 1
            }
        }
        return count
    }

    /// The first row from `y` downwards, in column `x`, whose brightness differs from the row above.
    func firstEdge(x: Int, from y: Int, to end: Int) -> Int? {
        guard y + 1 < end else { return nil }
        for row in (y + 1)..<min(end, height) where abs(luminance(x: x, y: row) - luminance(x: x, y: row - 1)) > 8 {
            return row
        }
        return nil
    }
}

/// A screenshot of a window as the Wayland compositor shows it, taken with grim.
@MainActor
enum CompositorScreenshot {
    /// Saves what the compositor shows of `window` as `name`.png beside the renders; returns its path.
    @discardableResult
    static func save(_ window: UnsafeMutablePointer<GtkWidget>, name: String) -> String {
        let origin = VirtualInput.windowOrigin
        let geometry = "\(origin.x),\(origin.y) \(gtk_widget_get_width(window))x\(gtk_widget_get_height(window))"
        let path = RenderedImage.folder.appendingPathComponent("\(name).png").path
        do {
            let grim = try Subprocess("/usr/bin/grim", ["-g", geometry, path]).finishTurningMainLoop(timeout: 10)
            XCTAssertEqual(grim.status, 0, "grim saved \(path): \(grim.errors)")
        } catch {
            XCTFail("grim could not start: \(error)")
        }
        return path
    }
}
