import RefreshCore

/// `core_event_ns`: one touchpad pull event through RefreshCore alone, the tracker then the
/// header's state machine, as ``RefreshComponent`` feeds them; no GTK.
enum CoreBench {
    /// Events per timed run: pulls down past the threshold and back up to the edge, again and
    /// again, so every kind of update (began, moved, released) and state change is in the mix.
    static let eventsPerRun = 200_000
    static let stepsPerPull = 100

    /// Mean nanoseconds per event, median of `options.runs` runs, and a checksum that keeps the
    /// optimizer from dropping the work.
    static func run(_ options: BenchOptions) -> (nanoseconds: Double, checksum: Double) {
        var checksum = 0.0
        for _ in 0..<options.warmUps { checksum += pull(events: eventsPerRun / 10) }
        var means: [Double] = []
        for _ in 0..<options.runs {
            var sum = 0.0
            let elapsed = Clock.time { sum = pull(events: eventsPerRun) }
            checksum += sum
            means.append(Double(elapsed) / Double(eventsPerRun))
        }
        return (Stats.median(means), checksum)
    }

    /// Feeds `events` scroll deltas: `stepsPerPull` down then as many up, which ends the pull
    /// back at the edge with a release.
    private static func pull(events: Int) -> Double {
        var tracker = PullTracker()
        var machine = RefreshMachine(extent: 54)
        let geometry = PullGeometry(extent: machine.extent, limit: 640)
        var time = 1000.0
        var sum = 0.0
        for event in 0..<events {
            let step = event % (2 * stepsPerPull)
            let delta = step < stepsPerPull ? 3.0 : -3.0
            time += 0.008
            let response = tracker.handle(.scrolled(delta: delta, source: .continuous(reportsEnd: true), atEdge: true, time: time),
                                          geometry: geometry, heldOffset: machine.offset)
            for update in response.updates {
                sum += Double(machine.handle(RefreshEvent(update)).count)
            }
            sum += machine.offset
        }
        return sum
    }
}
