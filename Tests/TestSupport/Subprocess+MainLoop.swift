import Foundation
import TestProcesses
#if canImport(Glibc)
import Glibc
#endif

extension Subprocess {
    /// Waits for the end while the GTK main loop keeps turning, for a window test whose windows
    /// must go on answering; a child still running after `timeout` seconds is killed, its status nil.
    @MainActor
    public func finishTurningMainLoop(timeout: Double) -> (status: Int32?, output: String, errors: String) {
        guard GtkTestEnvironment.iterate(timeout: timeout, until: { hasEnded }) else {
            kill(pid, SIGKILL)
            let killed = wait()
            return (nil, killed.output, killed.errors)
        }
        let ended = wait()
        return (ended.status, ended.output, ended.errors)
    }
}
