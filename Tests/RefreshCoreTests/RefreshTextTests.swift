import Foundation
import RefreshCore
import Testing

@Suite("RefreshText: every user-visible string")
struct RefreshTextTests {
    /// The reference's keys and English source strings.
    @Test("English source strings are MJRefresh's", arguments: [
        (RefreshText.headerIdle, "Pull down to refresh"),
        (.headerPulling, "Release to refresh"),
        (.headerRefreshing, "Loading…"),
        (.autoFooterIdle, "Click or pull up to load more"),
        (.autoFooterRefreshing, "Loading…"),
        (.autoFooterNoMoreData, "No more data"),
        (.backFooterIdle, "Pull up to load more"),
        (.backFooterPulling, "Release to load more"),
        (.backFooterRefreshing, "Loading…"),
        (.backFooterNoMoreData, "No more data"),
        (.headerLastTime, "Last update: "),
        (.headerDateToday, "Today"),
        (.headerNoneLastDate, "Never"),
    ])
    func english(text: RefreshText, expected: String) {
        #expect(text.english == expected)
    }

    @Test("the trailer has its own idle and pulling texts")
    func trailerTexts() {
        #expect(!RefreshText.trailerIdle.english.isEmpty)
        #expect(!RefreshText.trailerPulling.english.isEmpty)
        #expect(RefreshText.trailerIdle.english != RefreshText.trailerPulling.english)
    }

    @Test("every text has an English source", arguments: RefreshText.allCases)
    func nonEmpty(text: RefreshText) {
        #expect(!text.english.trimmingCharacters(in: .whitespaces).isEmpty)
    }

    @Test("every key of the reference is there, and no other", arguments: [15])
    func keyCount(count: Int) {
        #expect(RefreshText.allCases.count == count)
        #expect(Set(RefreshText.allCases.map(\.rawValue)).count == count)
    }

    @Test("the header shows the text of its state", arguments: [
        (RefreshState.idle, "Pull down to refresh"),
        (.pulling, "Release to refresh"),
        (.refreshing, "Loading…"),
        (.willRefresh, "Loading…"),
        (.noMoreData, "Pull down to refresh"),
    ])
    func headerText(state: RefreshState, expected: String) {
        #expect(RefreshText.header(state).english == expected)
    }

    @Test("the header's text changes as a pull goes idle -> pulling -> refreshing -> idle")
    func headerTextFollowsMachine() {
        var driver = MachineDriver()
        var shown: [String] = [RefreshText.header(driver.state).english]
        for step in Step.gesture(81) + [.settle, .end, .settle] {
            driver.run(step)
            let text = RefreshText.header(driver.state).english
            if text != shown.last { shown.append(text) }
        }
        #expect(shown == ["Pull down to refresh", "Release to refresh", "Loading…", "Pull down to refresh"])
    }
}
