import RefreshCore
import Testing

/// Samples of a pull position over time, and the velocity expected at a release time.
struct VelocityCase: Sendable, CustomTestStringConvertible {
    var name: String
    var samples: [(time: Double, position: Double)]
    var releasedAt: Double
    var expected: Double
    var tolerance = 1e-6

    var testDescription: String { name }
}

/// `count` samples every `interval` seconds from `start`, moving at `speed` pixels per second from `from`.
private func motion(from: Double = 0, speed: Double, start: Double = 0, interval: Double = 0.01,
                    count: Int) -> [(time: Double, position: Double)] {
    (0..<count).map { index in
        let time = start + Double(index) * interval
        return (time, from + speed * (time - start))
    }
}

@Suite("VelocityEstimator: release velocity from the last ~150 ms")
struct VelocityEstimatorTests {
    static let cases: [VelocityCase] = [
        VelocityCase(name: "steady motion gives its speed",
                     samples: motion(speed: 500, count: 50), releasedAt: 0.49, expected: 500),
        VelocityCase(name: "moving back gives a negative velocity",
                     samples: motion(from: 300, speed: -800, count: 30), releasedAt: 0.29, expected: -800),
        VelocityCase(name: "only the last 150 ms count: a slow end after a fast start",
                     samples: motion(speed: 2000, count: 50)
                         + motion(from: 2000 * 0.49, speed: 100, start: 0.5, count: 30),
                     releasedAt: 0.79, expected: 100),
        VelocityCase(name: "a fling at the end after a slow start",
                     samples: motion(speed: 50, count: 80)
                         + motion(from: 50 * 0.79, speed: 1500, start: 0.8, count: 20),
                     releasedAt: 0.99, expected: 1500),
        VelocityCase(name: "held still longer than the window before release: 0",
                     samples: motion(speed: 1000, count: 30), releasedAt: 0.29 + 0.2, expected: 0),
        VelocityCase(name: "a single sample: 0",
                     samples: [(1, 40)], releasedAt: 1, expected: 0),
        VelocityCase(name: "no samples: 0", samples: [], releasedAt: 3, expected: 0),
        VelocityCase(name: "samples at one instant: 0",
                     samples: [(1, 40), (1, 80)], releasedAt: 1, expected: 0),
        VelocityCase(name: "sparse samples within the window still measure",
                     samples: [(1.0, 0), (1.1, 30)], releasedAt: 1.1, expected: 300),
    ]

    @Test(arguments: cases)
    func releaseVelocity(_ scenario: VelocityCase) {
        var estimator = VelocityEstimator()
        for sample in scenario.samples { estimator.record(position: sample.position, at: sample.time) }
        let velocity = estimator.velocity(at: scenario.releasedAt)
        #expect(abs(velocity - scenario.expected) <= scenario.tolerance, "got \(velocity)")
    }

    @Test("the window is about 150 ms")
    func window() {
        #expect(PullTuning.velocityWindow == 0.15)
        // Motion that stopped 100 ms ago still counts; motion that stopped 200 ms ago does not.
        var recent = VelocityEstimator()
        for sample in motion(speed: 600, count: 20) { recent.record(position: sample.position, at: sample.time) }
        #expect(recent.velocity(at: 0.19 + 0.1) > 0)
        #expect(recent.velocity(at: 0.19 + 0.2) == 0)
    }

    @Test("reset forgets the motion")
    func reset() {
        var estimator = VelocityEstimator()
        for sample in motion(speed: 600, count: 20) { estimator.record(position: sample.position, at: sample.time) }
        estimator.reset()
        #expect(estimator.velocity(at: 0.19) == 0)
        estimator.record(position: 10, at: 0.2)
        estimator.record(position: 20, at: 0.25)
        #expect(abs(estimator.velocity(at: 0.25) - 200) < 1e-9)
    }

    // MARK: - Through the tracker

    @Test("a drag's release velocity is the content's speed along the pull, over the last moments: the finger's below the extent",
          arguments: [(300.0, 0.0), (1200, 0), (600, 0.3)])
    func dragReleaseVelocity(speed: Double, pause: Double) {
        var tracker = PullTracker.header()
        let roomy = PullGeometry(extent: 1000, limit: 2000)
        _ = tracker.handle(.dragBegan(time: 0), heldOffset: 0, geometry: roomy)
        var time = 0.0
        for index in 1...30 {
            time = Double(index) * 0.01
            _ = tracker.handle(.dragMoved(along: speed * time, across: 0, atEdge: true, time: time), heldOffset: 0,
                               geometry: roomy)
        }
        let response = tracker.handle(.dragEnded(time: time + pause), heldOffset: 0, geometry: roomy)
        #expect(response.updates.count == 2)
        guard let velocity = response.updates.releaseVelocity else {
            Issue.record("no release: \(response)")
            return
        }
        #expect(abs(velocity - (pause > 0.15 ? 0 : speed)) < 1e-6)
    }

    @Test("past the extent the content moves slower than the finger, and so does its release velocity")
    func rubberBandedReleaseVelocity() {
        var tracker = PullTracker.header()
        _ = tracker.handle(.dragBegan(time: 0), heldOffset: 0)
        var time = 0.0
        for index in 1...30 {
            time = Double(index) * 0.01
            _ = tracker.handle(.dragMoved(along: 100 + 600 * time, across: 0, atEdge: true, time: time), heldOffset: 0)
        }
        let velocity = tracker.handle(.dragEnded(time: time), heldOffset: 0).updates.releaseVelocity ?? 0
        let window = PullTuning.velocityWindow
        let geometry = PullGeometry.header
        let shown = { (t: Double) in RubberBand.offset(forDistance: 100 + 600 * t, extent: geometry.extent, limit: geometry.limit) }
        let firstSample = time - (window / 0.01).rounded(.down) * 0.01
        #expect(abs(velocity - (shown(time) - shown(firstSample)) / (time - firstSample)) < 1e-6)
        #expect(velocity > 0 && velocity < 600)
    }

    @Test("a touchpad pull's release velocity comes from its deltas; a pause release has none")
    func scrollReleaseVelocity() {
        var tracker = PullTracker.header()
        for index in 0..<10 {
            _ = tracker.handle(.pad(4, at: Double(index) * 0.01), heldOffset: 0)
        }
        let ended = tracker.handle(.scrollEnded(time: 0.09), heldOffset: 0)
        #expect(ended.updates == [.released(velocity: ended.updates.releaseVelocity ?? 0), .gestureEnded(movingOpen: true)])
        #expect(abs((ended.updates.releaseVelocity ?? 0) - 400) < 1e-6)

        var paused = PullTracker.header()
        for index in 0..<10 {
            _ = paused.handle(.padWithoutEnd(4, at: Double(index) * 0.01), heldOffset: 0)
        }
        let check = PullTuning.pauseCheckInterval
        let ticks = (1...Int((PullTuning.scrollPause / check).rounded())).map { 0.09 + Double($0) * check }
        let afterPause = ticks.map { paused.handle(.tick(time: $0), heldOffset: 0) }.last
        #expect(afterPause?.updates == [.released(velocity: 0)])
    }
}

extension [PullUpdate] {
    /// The velocity of the release among these updates, if there is one.
    var releaseVelocity: Double? {
        for update in self {
            if case let .released(velocity) = update { return velocity }
        }
        return nil
    }
}
