import RefreshCore
import Testing

@Suite("AnimationCurve and OffsetAnimation: motion as a pure function of time")
struct AnimationCurveTests {
    static let curves: [AnimationCurve] = [.easeOutCubic, .criticallyDampedSpring]
    static let samples = stride(from: 0.0, through: 1.0, by: 0.01).map { $0 }

    @Test("starts exactly at 0 and ends exactly at 1", arguments: curves)
    func endpoints(curve: AnimationCurve) {
        #expect(curve.progress(0) == 0)
        #expect(curve.progress(1) == 1)
    }

    @Test("time outside 0...1 is clamped", arguments: curves)
    func clamped(curve: AnimationCurve) {
        #expect(curve.progress(-0.5) == 0)
        #expect(curve.progress(1.5) == 1)
        #expect(curve.progress(100) == 1)
    }

    @Test("never goes back and never overshoots", arguments: curves)
    func monotonicWithoutOvershoot(curve: AnimationCurve) {
        let values = Self.samples.map(curve.progress)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(values.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    @Test("ease-out starts fast and decelerates to rest: ahead of linear, each step smaller than the last")
    func easesOut() {
        let curve = AnimationCurve.easeOutCubic
        for t in Self.samples where t > 0 && t < 1 {
            #expect(curve.progress(t) > t, "at \(t)")
        }
        let values = Self.samples.map(curve.progress)
        let steps = zip(values, values.dropFirst()).map { $1 - $0 }
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $1 < $0 })
        #expect(steps.last! < steps.first! / 100, "arrives at rest")
    }

    @Test("the spring starts from rest, speeds up, then slows down to rest without a visible snap")
    func springSettles() {
        let curve = AnimationCurve.criticallyDampedSpring
        let values = Self.samples.map(curve.progress)
        let steps = zip(values, values.dropFirst()).map { $1 - $0 }
        let peak = steps.firstIndex(of: steps.max()!)!
        #expect(peak > 0 && peak < steps.count / 4, "speeds up early")
        // After the peak it only slows down (the last step, onto exactly 1, is checked below).
        let slowing = steps[peak..<(steps.count - 1)]
        #expect(zip(slowing, slowing.dropFirst()).allSatisfy { $1 < $0 })
        #expect(curve.progress(0.5) > 0.9)
        // Within about 0.1% of rest at the end: the final step to exactly 1 is under a pixel on a 600 px move.
        #expect(1 - curve.progress(0.999) < 0.0011)
        #expect(steps.last! * 600 < 1)
    }

    // MARK: - OffsetAnimation

    struct OffsetCase: Sendable, CustomTestStringConvertible {
        var from: Double
        var to: Double
        var duration: Double
        var curve: AnimationCurve
        var testDescription: String { "\(from) -> \(to) over \(duration) s, \(curve)" }
    }

    static let animations: [OffsetCase] = [
        OffsetCase(from: 0, to: 54, duration: 0.25, curve: .easeOutCubic),
        OffsetCase(from: 111.1, to: 45.6, duration: 0.25, curve: .easeOutCubic),
        OffsetCase(from: 201.3789541921628, to: 5.474805651837378, duration: 0.25, curve: .easeOutCubic),
        OffsetCase(from: 169.5, to: 40.7, duration: 0.4, curve: .criticallyDampedSpring),
        OffsetCase(from: 54, to: 0, duration: 0.4, curve: .criticallyDampedSpring),
        OffsetCase(from: 37.25, to: 0, duration: 0.4, curve: .easeOutCubic),
    ]

    @Test("starts at its origin and ends exactly on its target", arguments: animations)
    func exactEnds(_ scenario: OffsetCase) {
        let animation = OffsetAnimation(from: scenario.from, to: scenario.to, duration: scenario.duration,
                                        curve: scenario.curve)
        #expect(animation.value(at: 0) == scenario.from)
        #expect(animation.value(at: scenario.duration) == scenario.to)
        #expect(animation.value(at: scenario.duration + 1) == scenario.to)
        #expect(animation.value(at: -1) == scenario.from)
    }

    @Test("finishes when its duration has passed, not before", arguments: animations)
    func finishes(_ scenario: OffsetCase) {
        let animation = OffsetAnimation(from: scenario.from, to: scenario.to, duration: scenario.duration,
                                        curve: scenario.curve)
        #expect(!animation.isFinished(at: 0))
        #expect(!animation.isFinished(at: scenario.duration * 0.99))
        #expect(animation.isFinished(at: scenario.duration))
    }

    @Test("moves steadily from origin to target, staying between them", arguments: animations)
    func inBetween(_ scenario: OffsetCase) {
        let animation = OffsetAnimation(from: scenario.from, to: scenario.to, duration: scenario.duration,
                                        curve: scenario.curve)
        let low = min(scenario.from, scenario.to), high = max(scenario.from, scenario.to)
        let values = Self.samples.map { animation.value(at: $0 * scenario.duration) }
        #expect(values.allSatisfy { $0 >= low && $0 <= high })
        let towards = scenario.to > scenario.from
        #expect(zip(values, values.dropFirst()).allSatisfy { towards ? $0 <= $1 : $0 >= $1 })
    }

    @Test("an animation with nowhere to go or no time is finished at once and at its target",
          arguments: [(10.0, 10.0, 0.25), (0, 54, 0), (54, 0, -1)])
    func trivial(from: Double, to: Double, duration: Double) {
        let animation = OffsetAnimation(from: from, to: to, duration: duration)
        #expect(animation.isFinished(at: 0))
        if duration <= 0 { #expect(animation.value(at: 0) == to) }
        #expect(animation.value(at: max(duration, 0)) == to)
    }

    @Test("the default curve eases out")
    func defaultCurve() {
        #expect(OffsetAnimation(from: 0, to: 1, duration: 1).curve == .easeOutCubic)
    }
}
