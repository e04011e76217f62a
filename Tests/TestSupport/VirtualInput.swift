import CGtk
import Foundation

/// Real input under Wayland: the test compositor's virtual pointer and keyboard, driven through
/// the project's `virtual-input` helper (Tests/VirtualInput), one process per test process so the
/// compositor sees the same devices throughout, as with a real touchpad.
@MainActor
public final class VirtualInput {
    /// The output layout's size, which absolute motion is relative to (meson-helpers/wayland-session).
    public static let layoutSize = (width: 1440, height: 900)
    /// Where the test compositor puts every window's content (its geometry, shadows excluded).
    public static let windowOrigin = (x: 160, y: 80)

    public static let shared = VirtualInput()

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var received = ""
    private var acknowledged = 0
    private var sent = 0
    /// Where the pointer is in the layout, for relative moves.
    public private(set) var position = (x: 0.0, y: 0.0)

    private init() {
        guard let path = ProcessInfo.processInfo.environment["REFRESHGTK_VIRTUAL_INPUT"] else {
            fatalError("REFRESHGTK_VIRTUAL_INPUT is not set: run Wayland tests through meson-helpers/wayland-session")
        }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["\(Self.layoutSize.width)", "\(Self.layoutSize.height)"]
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            fatalError("virtual-input could not start: \(error)")
        }
        let descriptor = output.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        GtkTestEnvironment.iterate(timeout: 10) { self.readLines().contains("ready") }
    }

    /// Sends command lines (see Tests/VirtualInput/virtual-input.c) and runs the main loop until the compositor
    /// has taken all of them, so the app receives the events while they are sent, in real time.
    public func send(_ commands: [String]) {
        input.fileHandleForWriting.write(Data((commands.joined(separator: "\n") + "\n").utf8))
        sent += commands.count
        var refused: [String] = []
        let done = GtkTestEnvironment.iterate(timeout: 30) {
            let lines = self.readLines()
            refused += lines.filter { $0.hasPrefix("error") }
            self.acknowledged += lines.count
            return self.acknowledged >= self.sent
        }
        precondition(done && refused.isEmpty, "virtual-input did not take \(refused.isEmpty ? commands : refused)")
        // Not settleInput: under Wayland the touchpad swipes' timing and the pull tests' layout
        // counts were checked with this pause, and a frame per command changed both.
        GtkTestEnvironment.iterate(for: 0.05)
    }

    /// The command that moves the pointer to `point` in the output layout; relative moves start there.
    public func moveCommand(to point: (x: Double, y: Double)) -> String {
        position = point
        return "move \(point.x) \(point.y)"
    }

    private func readLines() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(output.fileHandleForReading.fileDescriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            received += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        guard let lastNewline = received.lastIndex(of: "\n") else { return [] }
        let complete = received[..<lastNewline]
        received = String(received[received.index(after: lastNewline)...])
        return complete.split(separator: "\n").map(String.init)
    }
}
