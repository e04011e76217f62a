import CGtk
import Foundation
import RefreshGtk

/// What `refresh-bench` asks of the app, through the environment; nothing happens without it.
///
/// - `FEED_READER_BENCH_EXIT_AFTER_FIRST_FRAME=1`: once a frame showing the first page of
///   entries has been painted, prints `feed-reader-bench first-frame-ns=N vmhwm-kb=N` (CLOCK_MONOTONIC,
///   the clock the bench started the process on) and its peak resident memory so far, and quits.
/// - `FEED_READER_BENCH_SCROLL_TO_END=1`: after that frame, scrolls to the end frame after
///   frame, letting the footer load every page, then prints
///   `feed-reader-bench vmhwm-kb=N entries=N` (peak resident memory from /proc/self/status)
///   and quits.
@MainActor
enum BenchHooks {
    private final class Run {
        let window: MainWindow
        let scrollToEnd: Bool
        var firstFramePainted = false
        var finished = false
        var lastProgress = 0.0
        var lastCount = 0

        init(window: MainWindow, scrollToEnd: Bool) {
            self.window = window
            self.scrollToEnd = scrollToEnd
        }
    }

    /// Called once the window is presented (and so realized, with a frame clock).
    static func install(on window: MainWindow) {
        let environment = ProcessInfo.processInfo.environment
        let exitAfterFirstFrame = environment["FEED_READER_BENCH_EXIT_AFTER_FIRST_FRAME"] == "1"
        let scrollToEnd = environment["FEED_READER_BENCH_SCROLL_TO_END"] == "1"
        guard exitAfterFirstFrame || scrollToEnd, let clock = gtk_widget_get_frame_clock(window.window) else { return }
        let run = Run(window: window, scrollToEnd: scrollToEnd)
        // after-paint: the frame is drawn, not only laid out.
        Signal.connect(cast(clock), "after-paint") { afterPaint(run) }
    }

    private static func afterPaint(_ run: Run) {
        let list = run.window.entryList
        if !run.firstFramePainted {
            guard !list.order.isEmpty, gtk_widget_get_mapped(list.listView) != 0 else { return }
            run.firstFramePainted = true
            if !run.scrollToEnd {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let nanoseconds = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
                report("first-frame-ns=\(nanoseconds) vmhwm-kb=\(peakResidentKilobytes())")
                return
            }
            // Programmatic scrolling is no new gesture: let the footer load on every arrival at the end.
            list.footer.autoTriggerTimes = -1
            run.lastProgress = MainThread.now
        }
        guard run.scrollToEnd, !run.finished else { return }
        if list.footer.state == .noMoreData {
            run.finished = true
            report("vmhwm-kb=\(peakResidentKilobytes()) entries=\(list.order.count)")
            return
        }
        if list.order.count != run.lastCount {
            run.lastCount = list.order.count
            run.lastProgress = MainThread.now
        } else if list.footer.state == .idle, MainThread.now - run.lastProgress > 1 {
            // Still at the end and nothing loads: load as a click on the footer would.
            list.footer.beginRefreshing()
            run.lastProgress = MainThread.now
        }
        if let adjustment = gtk_scrollable_get_vadjustment(cast(list.listView)) {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
        }
        // Keep frames coming while pages load.
        gtk_widget_queue_draw(list.listView)
    }

    /// Prints one line for the bench and quits the app.
    private static func report(_ fields: String) {
        // Written straight to the descriptor: nothing left in a buffer when the app quits.
        FileHandle.standardOutput.write(Data("feed-reader-bench \(fields)\n".utf8))
        g_application_quit(g_application_get_default())
    }

    /// VmHWM: the most resident memory the process has had.
    private static func peakResidentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
