import RefreshCore
import Testing

@Suite("RubberBand: resistance past the component's extent")
struct RubberBandTests {
    static let extent = 54.0
    static let limit = 600.0

    static func offset(_ distance: Double) -> Double {
        RubberBand.offset(forDistance: distance, extent: extent, limit: limit)
    }

    @Test("up to the extent the content follows the finger exactly",
          arguments: [0.0, 0.5, 10, 27, 53.9, 54])
    func followsUpToExtent(distance: Double) {
        #expect(Self.offset(distance) == distance)
    }

    @Test("a finger behind the edge reveals nothing", arguments: [-0.1, -10, -1000])
    func negativeDistance(distance: Double) {
        #expect(Self.offset(distance) == 0)
    }

    @Test("past the extent each pixel moves the content less than a pixel, and never to the limit",
          arguments: [54.001, 55, 60, 100, 200, 400, 1000, 5000, 1e6])
    func resistsPastExtent(distance: Double) {
        let offset = Self.offset(distance)
        #expect(offset > Self.extent)
        #expect(offset < distance)
        #expect(offset < Self.limit)
    }

    @Test("the pull keeps moving the content the further it goes, ever more slowly")
    func monotonicAndSlowing() {
        let distances = stride(from: 54.0, through: 2000, by: 10).map { $0 }
        let offsets = distances.map(Self.offset)
        let gains = zip(offsets, offsets.dropFirst()).map { $1 - $0 }
        #expect(gains.allSatisfy { $0 > 0 })
        #expect(zip(gains, gains.dropFirst()).allSatisfy { $1 < $0 })
    }

    @Test("no jump at the extent: just past it the content moves at the tuning coefficient")
    func continuousAtExtent() {
        let step = 1e-3
        let slope = (Self.offset(Self.extent + step) - Self.offset(Self.extent)) / step
        #expect(abs(slope - PullTuning.rubberBandCoefficient) < 1e-3)
        #expect(PullTuning.rubberBandCoefficient > 0 && PullTuning.rubberBandCoefficient < 1)
    }

    @Test("a bigger viewport lets the band stretch further")
    func limitScales() {
        let small = RubberBand.offset(forDistance: 300, extent: 54, limit: 300)
        let large = RubberBand.offset(forDistance: 300, extent: 54, limit: 900)
        #expect(small < large)
        #expect(small < 300)
    }

    @Test("a viewport no taller than the component still resists and never goes below the extent",
          arguments: [0.0, 20, 54])
    func degenerateLimit(limit: Double) {
        for distance in [60.0, 100, 1000] {
            let offset = RubberBand.offset(forDistance: distance, extent: 54, limit: limit)
            #expect(offset >= 54 && offset <= 55)
        }
    }

    @Test("distance(forOffset:) undoes offset(forDistance:), so a held space resumes without a jump",
          arguments: [0.0, 20, 54, 60, 100, 250, 1000])
    func inverse(distance: Double) {
        let offset = Self.offset(distance)
        let back = RubberBand.distance(forOffset: offset, extent: Self.extent, limit: Self.limit)
        #expect(abs(back - distance) < 1e-6 * max(1, distance))
    }

    @Test("an offset at or past the limit maps back to a finite distance", arguments: [600.0, 700, 1e9])
    func inverseAtLimit(offset: Double) {
        let distance = RubberBand.distance(forOffset: offset, extent: Self.extent, limit: Self.limit)
        #expect(distance.isFinite)
        #expect(distance > Self.extent)
    }

    @Test("a drag past the extent is rubber-banded by the tracker, and resumes where it was")
    func trackerAppliesRubberBand() {
        var tracker = PullTracker.header()
        let replies = tracker.replies(to: [.press(at: 0), .drag(200, at: 0.01)])
        #expect(replies == [.pass, .claim([.began(0), .moved(Self.offset(200))])])
        #expect(tracker.offset < 200 && tracker.offset > 54)

        // A new drag on the same held space starts from where the content is, not from the edge.
        let held = tracker.offset
        var next = PullTracker.header()
        let resumed = next.replies(to: [.press(at: 1, held: held), .drag(10, at: 1.01, held: held)])
        guard case let .claim(moves) = resumed[1], moves.count == 2, case let .moved(offset) = moves[1] else {
            Issue.record("the drag over the held space was not claimed: \(resumed)")
            return
        }
        #expect(moves[0] == .began(held))
        #expect(offset > held && offset < held + 10)
    }
}
