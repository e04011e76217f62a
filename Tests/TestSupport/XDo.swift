import CGtk
import Foundation
import TestProcesses
import XCTest

/// Real X input through xdotool, while the GTK main loop keeps running (`RealInput` under X11).
@MainActor
public enum XDo {
    /// Runs xdotool with `arguments`, pumping the main loop until it exits.
    public static func run(_ arguments: [String]) {
        let child: Subprocess
        do {
            child = try Subprocess("/usr/bin/xdotool", arguments)
        } catch {
            fatalError("xdotool could not start: \(error)")
        }
        if child.finishTurningMainLoop(timeout: 20).status == nil {
            XCTFail("Waited 20 s in vain for xdotool \(arguments.joined(separator: " "))")
        }
        GtkTestEnvironment.settleInput()
    }

    /// The X window of a toplevel, found by its unique title.
    public static func windowID(title: String) -> String {
        let output = (try? Subprocess("/usr/bin/xdotool", ["search", "--name", title]))?.finishTurningMainLoop(timeout: 10).output ?? ""
        return output.split(separator: "\n").first.map(String.init) ?? ""
    }

    /// Presses at `start` in `window`, moves by `(dx, dy)` pixels in `steps` steps `interval`
    /// seconds apart, and releases if asked.
    public static func drag(windowTitle: String, from start: (x: Int, y: Int), dx: Int = 0, dy: Int, steps: Int = 12,
                            interval: Double = 0.02, release: Bool = true) {
        let id = windowID(title: windowTitle)
        var commands = ["mousemove", "--window", id, "\(start.x)", "\(start.y)", "mousedown", "1"]
        for step in 1...steps {
            commands += ["sleep", "\(interval)", "mousemove", "--window", id,
                         "\(start.x + dx * step / steps)", "\(start.y + dy * step / steps)"]
        }
        if release { commands += ["sleep", "0.05", "mouseup", "1"] }
        run(commands)
    }

    public static func release() { run(["mouseup", "1"]) }

    /// Clicks `button` (1 the left, 3 the right) at `point` in the window titled `windowTitle`,
    /// `holding` keys (such as "ctrl") down meanwhile.
    public static func click(windowTitle: String, at point: (x: Int, y: Int), button: Int = 1, holding: String? = nil) {
        let id = windowID(title: windowTitle)
        let click = ["mousemove", "--window", id, "\(point.x)", "\(point.y)", "sleep", "0.05", "click", "\(button)"]
        guard let holding else { return run(click) }
        run(["windowfocus", "--sync", id, "keydown", holding] + click + ["keyup", holding])
    }

    /// Turns the mouse wheel `count` clicks at `point`: button 4 is up, 5 is down; `holding`
    /// keys (such as "ctrl") are held down meanwhile.
    public static func wheel(windowTitle: String, at point: (x: Int, y: Int), button: Int, count: Int, holding: String? = nil) {
        let id = windowID(title: windowTitle)
        let clicks = ["click", "--repeat", "\(count)", "--delay", "30", "\(button)"]
        guard let holding else { return run(["mousemove", "--window", id, "\(point.x)", "\(point.y)"] + clicks) }
        run(["windowfocus", "--sync", id, "mousemove", "--window", id, "\(point.x)", "\(point.y)", "keydown", holding]
            + clicks + ["keyup", holding])
    }

    /// Types `text` key by key in the window titled `windowTitle`.
    public static func type(windowTitle: String, _ text: String) {
        let id = windowID(title: windowTitle)
        run(["windowfocus", "--sync", id, "sleep", "0.1", "type", "--delay", "20", text])
    }

    /// Presses a key combination (xdotool syntax, such as "ctrl+r") in the window titled `windowTitle`.
    public static func key(windowTitle: String, _ keys: String) {
        let id = windowID(title: windowTitle)
        run(["windowfocus", "--sync", id, "sleep", "0.1", "key", keys])
    }
}
