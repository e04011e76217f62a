import CGtk
import Foundation

/// Real input through the display server the tests run on: xdotool under X11, the compositor's
/// virtual pointer and keyboard under Wayland (meson-helpers/wayland-session). Points come from
/// `surfacePoint(of:in:)`; the main loop keeps running while the input is sent.
@MainActor
public enum RealInput {
    /// Presses at `start`, moves by `(dx, dy)` pixels in `steps` steps `interval` seconds apart,
    /// and releases if asked.
    public static func drag(windowTitle: String, from start: (x: Int, y: Int), dx: Int = 0, dy: Int, steps: Int = 12,
                            interval: Double = 0.02, release: Bool = true) {
        guard GtkTestEnvironment.isWayland else {
            XDo.drag(windowTitle: windowTitle, from: start, dx: dx, dy: dy, steps: steps, interval: interval,
                     release: release)
            return
        }
        let pointer = VirtualInput.shared
        var commands = [pointer.moveCommand(to: (Double(start.x), Double(start.y))), "wait 30", "press"]
        for step in 1...steps {
            let point = (Double(start.x + dx * step / steps), Double(start.y + dy * step / steps))
            commands += ["wait \(Int((interval * 1000).rounded()))", pointer.moveCommand(to: point)]
        }
        if release { commands += ["wait 50", "release"] }
        pointer.send(commands)
    }

    /// Moves the pointer to `point` of the window titled `windowTitle`, buttons as they are.
    public static func move(windowTitle: String, to point: (x: Int, y: Int)) {
        guard GtkTestEnvironment.isWayland else {
            XDo.run(["mousemove", "--window", XDo.windowID(title: windowTitle), "\(point.x)", "\(point.y)"])
            return
        }
        VirtualInput.shared.send([VirtualInput.shared.moveCommand(to: (Double(point.x), Double(point.y)))])
    }

    /// Moves the pointer by `dy` pixels, buttons as they are.
    public static func move(dy: Int) {
        guard GtkTestEnvironment.isWayland else {
            XDo.run(["mousemove_relative", "--", "0", "\(dy)"])
            return
        }
        let pointer = VirtualInput.shared
        pointer.send([pointer.moveCommand(to: (pointer.position.x, pointer.position.y + Double(dy)))])
    }

    /// Releases the left button.
    public static func release() {
        guard GtkTestEnvironment.isWayland else { return XDo.release() }
        VirtualInput.shared.send(["release"])
    }

    /// Clicks at `point` in the window titled `windowTitle`, with the left button or, with
    /// `rightButton`, the right one (a context menu's click); `holding` keys (such as "ctrl" or
    /// "shift") are held down meanwhile.
    public static func click(windowTitle: String, at point: (x: Int, y: Int), rightButton: Bool = false, holding: String? = nil) {
        guard GtkTestEnvironment.isWayland else {
            return XDo.click(windowTitle: windowTitle, at: point, button: rightButton ? 3 : 1, holding: holding)
        }
        let pointer = VirtualInput.shared
        let button = rightButton ? " right" : ""
        var commands = [pointer.moveCommand(to: (Double(point.x), Double(point.y))), "wait 50", "press" + button, "release" + button]
        if let holding {
            GtkTestEnvironment.iterate { toplevel(titled: windowTitle).map { gtk_window_is_active($0) != 0 } ?? false }
            commands = ["keydown \(holding)", "wait 30"] + commands + ["keyup \(holding)"]
        }
        pointer.send(commands)
    }

    /// Turns the mouse wheel `count` clicks at `point`: button 4 is up, 5 is down (X11's numbering);
    /// `holding` keys (such as "ctrl") are held down meanwhile.
    public static func wheel(windowTitle: String, at point: (x: Int, y: Int), button: Int, count: Int, holding: String? = nil) {
        guard GtkTestEnvironment.isWayland else {
            return XDo.wheel(windowTitle: windowTitle, at: point, button: button, count: count, holding: holding)
        }
        let pointer = VirtualInput.shared
        let click = button == 4 ? "wheel -1" : "wheel 1"
        var commands = [pointer.moveCommand(to: (Double(point.x), Double(point.y)))]
            + Array(repeating: [click, "wait 30"], count: count).flatMap { $0 }
        if let holding {
            GtkTestEnvironment.iterate { toplevel(titled: windowTitle).map { gtk_window_is_active($0) != 0 } ?? false }
            commands = ["keydown \(holding)", "wait 30"] + commands + ["keyup \(holding)"]
        }
        pointer.send(commands)
    }

    /// A two-finger touchpad swipe at `point`, as libinput sends it under Wayland: one frame of
    /// `(dx, dy)` pixels per step every `interval` seconds (negative dy scrolls up, pulling a
    /// header), then, if `lift`, the fingers lift (`axis_stop`) after `hold` seconds.
    /// X11 has no real path for smooth scrolling: these tests run under Wayland only.
    public static func swipe(at point: (x: Int, y: Int), steps: [(dx: Double, dy: Double)], interval: Double = 0.016,
                             hold: Double = 0.05, lift: Bool = true) {
        precondition(GtkTestEnvironment.isWayland, "touchpad swipes need the Wayland test session")
        let pointer = VirtualInput.shared
        var commands = [pointer.moveCommand(to: (Double(point.x), Double(point.y))), "wait 30"]
        for step in steps {
            commands += ["scroll \(step.dx) \(step.dy)", "wait \(Int(interval * 1000))"]
        }
        if lift { commands += ["wait \(Int(hold * 1000))", "stop"] }
        pointer.send(commands)
    }

    /// The fingers of a swipe sent with `lift: false` lift now.
    public static func lift() {
        VirtualInput.shared.send(["stop"])
    }

    /// Presses a key combination (such as "F5" or "ctrl+r") in the window titled `windowTitle`.
    /// Under Wayland only the compositor gives the keyboard to a window (the newest one): the keys
    /// go once that window knows it has it, as xdotool's `windowfocus --sync` waits under X11,
    /// and once its focus widget shows (`awaitKeyboard`).
    public static func key(windowTitle: String, _ keys: String) {
        awaitKeyboard(in: windowTitle)
        guard GtkTestEnvironment.isWayland else { return XDo.key(windowTitle: windowTitle, keys) }
        VirtualInput.shared.send(["key \(keys)"])
    }

    /// Types `text` in the window titled `windowTitle`, one key (with Shift where it needs it) per character.
    public static func type(windowTitle: String, _ text: String) {
        awaitKeyboard(in: windowTitle)
        guard GtkTestEnvironment.isWayland else { return XDo.type(windowTitle: windowTitle, text) }
        VirtualInput.shared.send(text.unicodeScalars.map { character in
            let name = keyNames[character] ?? String(character).lowercased()
            return "key " + (character.properties.isUppercase ? "shift+" + name : name)
        })
    }

    /// Waits until the window titled `title` takes keys as a person sees it ready to: under
    /// Wayland, once it knows it has the keyboard; under both, once the widget with its focus is
    /// mapped. GTK 4.8 hands no key to a focus widget that shows only on the next frame (a search
    /// entry just revealed, a pane sliding in): a key sent before that frame was lost.
    private static func awaitKeyboard(in title: String) {
        GtkTestEnvironment.iterate {
            guard let window = toplevel(titled: title) else { return !GtkTestEnvironment.isWayland }
            if GtkTestEnvironment.isWayland, gtk_window_is_active(window) == 0 { return false }
            return gtk_window_get_focus(window).map { gtk_widget_get_mapped($0) != 0 } ?? true
        }
    }

    /// The XKB names of the characters that are not their own name.
    private static let keyNames: [Unicode.Scalar: String] = [
        "/": "slash", ".": "period", "-": "minus", "_": "underscore", " ": "space", ":": "colon", "~": "asciitilde",
        "*": "asterisk",
    ]

    private static func toplevel(titled title: String) -> UnsafeMutablePointer<GtkWindow>? {
        let toplevels = gtk_window_get_toplevels()!
        for index in 0..<g_list_model_get_n_items(toplevels) {
            let window = UnsafeMutablePointer<GtkWindow>(OpaquePointer(g_list_model_get_item(toplevels, index)!))
            g_object_unref(window)
            if let name = gtk_window_get_title(window), String(cString: name) == title { return window }
        }
        return nil
    }
}
