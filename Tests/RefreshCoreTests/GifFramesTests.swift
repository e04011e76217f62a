import RefreshCore
import Testing

/// A frame choice: what a Gif indicator shows in a state after some time.
struct GifFrameCase: Sendable, CustomTestStringConvertible {
    var name: String
    var state: RefreshState
    var count: Int
    var percent = 0.0
    var elapsed = 0.0
    var duration: Double?
    var frame: Int?

    var testDescription: String { name }
}

@Suite("GifFrames: which image a Gif indicator shows")
struct GifFramesTests {
    static let cases: [GifFrameCase] = [
        // Idle follows the pull
        GifFrameCase(name: "idle at rest shows the first image", state: .idle, count: 10, frame: 0),
        GifFrameCase(name: "idle half pulled shows floor(count x percent)", state: .idle, count: 10, percent: 0.55, frame: 5),
        GifFrameCase(name: "idle just under a frame boundary stays on the frame before",
                     state: .idle, count: 3, percent: 0.66, frame: 1),
        GifFrameCase(name: "idle pulled fully is clamped to the last image", state: .idle, count: 10, percent: 1, frame: 9),
        GifFrameCase(name: "idle pulled past the height is clamped too", state: .idle, count: 10, percent: 1.8, frame: 9),
        GifFrameCase(name: "idle ignores time", state: .idle, count: 10, percent: 0.2, elapsed: 5, frame: 2),

        // Pulling and refreshing loop: frames x 0.1 s by default
        GifFrameCase(name: "pulling starts on the first image", state: .pulling, count: 3, frame: 0),
        GifFrameCase(name: "pulling shows the second image after 0.1 s", state: .pulling, count: 3, elapsed: 0.15, frame: 1),
        GifFrameCase(name: "refreshing loops back to the start after frames x 0.1 s",
                     state: .refreshing, count: 8, elapsed: 0.85, frame: 0),
        GifFrameCase(name: "refreshing ignores the pull", state: .refreshing, count: 8, percent: 0.9, elapsed: 0.35, frame: 3),
        GifFrameCase(name: "a given duration spreads the loop", state: .refreshing, count: 4, elapsed: 1.5,
                     duration: 2, frame: 3),
        GifFrameCase(name: "willRefresh loops like refreshing", state: .willRefresh, count: 4, elapsed: 0.25, frame: 2),
        GifFrameCase(name: "a single image stands still", state: .refreshing, count: 1, elapsed: 0.73, frame: 0),

        // Nothing to show
        GifFrameCase(name: "a state without images shows none", state: .pulling, count: 0, frame: nil),
        GifFrameCase(name: "no more data shows its first image", state: .noMoreData, count: 2, elapsed: 0.4, frame: 0),
    ]

    @Test(arguments: cases)
    func frame(_ scenario: GifFrameCase) {
        let loop = GifFrames.loopDuration(count: scenario.count, duration: scenario.duration)
        #expect(GifFrames.index(state: scenario.state, count: scenario.count, pullingPercent: scenario.percent,
                                elapsed: scenario.elapsed, loopDuration: loop) == scenario.frame)
    }

    @Test("the loop lasts frames x 0.1 s unless a duration is given")
    func loopDuration() {
        #expect(GifFrames.loopDuration(count: 8, duration: nil) == 0.8)
        #expect(GifFrames.loopDuration(count: 8, duration: 2) == 2)
    }

    @Test("frames keep coming only while a state with several images loops", arguments: [
        (RefreshState.idle, 10, false), (.pulling, 3, true), (.refreshing, 8, true), (.willRefresh, 8, true),
        (.refreshing, 1, false), (.noMoreData, 4, false),
    ] as [(RefreshState, Int, Bool)])
    func loops(state: RefreshState, count: Int, loops: Bool) {
        #expect(GifFrames.loops(state: state, count: count) == loops)
    }
}
