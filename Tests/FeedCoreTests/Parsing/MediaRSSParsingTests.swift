import Foundation
import Testing
@testable import FeedCore

/// Media RSS (`media:content`, `media:group`, `media:thumbnail`) as YouTube, Flickr, WordPress
/// and podcast hosts publish it: each file and preview picture becomes one of the entry's enclosures.
@Suite("Media RSS and JSON Feed pictures")
struct MediaRSSParsingTests {
    private func entry(_ itemBody: String, root: String = "rss") throws -> Entry {
        let document = root == "rss"
            ? "<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><title>T</title><item><title>I</title>\(itemBody)</item></channel></rss>"
            : "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:media=\"http://search.yahoo.com/mrss/\"><title>T</title><entry><id>e</id><title>I</title>\(itemBody)</entry></feed>"
        let parsed = try FeedParser().parse(Data(document.utf8), url: URL(string: "https://media.example/feed.xml"))
        return try #require(parsed.entries.first)
    }

    @Test func thumbnailOfAnItemIsAnImage() throws {
        let entry = try entry("<media:thumbnail url=\"/pics/cover.jpg\" width=\"320\" height=\"180\"/>")
        #expect(entry.enclosures == [Enclosure(url: URL(string: "https://media.example/pics/cover.jpg")!, isThumbnail: true)])
        #expect(entry.enclosures.first?.kind == .image)
    }

    @Test func groupGivesItsContentAndThumbnail() throws {
        let entry = try entry("""
            <media:group>
              <media:title>Clip</media:title>
              <media:content url="https://media.example/v/clip.mp4" type="video/mp4" fileSize="4096" width="640"/>
              <media:thumbnail url="https://media.example/v/clip.jpg"/>
            </media:group>
            """, root: "atom")
        #expect(entry.enclosures == [
            Enclosure(url: URL(string: "https://media.example/v/clip.mp4")!, type: "video/mp4", length: 4096),
            Enclosure(url: URL(string: "https://media.example/v/clip.jpg")!, isThumbnail: true),
        ])
        #expect(entry.enclosures.map(\.kind) == [.video, .image])
    }

    @Test func contentWithMediumAndNoTypeAndItsOwnThumbnail() throws {
        let entry = try entry("""
            <media:content url="https://media.example/a/episode" medium="audio">
              <media:thumbnail url="https://media.example/a/episode.png"/>
            </media:content>
            <media:content url="https://media.example/p/photo" medium="image"/>
            """)
        #expect(entry.enclosures.map(\.kind) == [.audio, .image, .image])
        #expect(entry.enclosures[0].medium == .audio)
        #expect(entry.enclosures[1].isThumbnail)
        #expect(!entry.enclosures[2].isThumbnail)
    }

    @Test func thumbnailRepeatingAnEnclosureIsKeptOnce() throws {
        let entry = try entry("""
            <enclosure url="https://media.example/cover.jpg" type="image/jpeg" length="10"/>
            <media:thumbnail url="https://media.example/cover.jpg"/>
            """)
        #expect(entry.enclosures == [Enclosure(url: URL(string: "https://media.example/cover.jpg")!, type: "image/jpeg", length: 10)])
    }

    @Test func jsonFeedItemImageIsItsThumbnail() throws {
        let document = #"{"version":"https://jsonfeed.org/version/1.1","title":"T","items":[{"id":"1","image":"/art/1.webp","#
            + #""attachments":[{"url":"/ep/1.m4a","mime_type":"audio/x-m4a"}]}]}"#
        let entry = try #require(try FeedParser().parse(Data(document.utf8), url: URL(string: "https://media.example/feed.json")).entries.first)
        #expect(entry.enclosures == [
            Enclosure(url: URL(string: "https://media.example/ep/1.m4a")!, type: "audio/x-m4a"),
            Enclosure(url: URL(string: "https://media.example/art/1.webp")!, isThumbnail: true),
        ])
    }

    @Test func kindFallsBackToTheFileExtension() {
        #expect(Enclosure(url: URL(string: "https://m.example/show/42.MP3?token=1")!).kind == .audio)
        #expect(Enclosure(url: URL(string: "https://m.example/42.webm")!, type: "application/octet-stream").kind == .video)
        #expect(Enclosure(url: URL(string: "https://m.example/notes.pdf")!, type: "application/pdf").kind == .other)
    }

    @Test func enclosuresStoredBeforeThumbnailsStillDecode() throws {
        let stored = Data(#"[{"url":"https://m.example/1.mp3","type":"audio/mpeg","length":5}]"#.utf8)
        let decoded = try JSONDecoder().decode([Enclosure].self, from: stored)
        #expect(decoded == [Enclosure(url: URL(string: "https://m.example/1.mp3")!, type: "audio/mpeg", length: 5)])
        let roundTrip = try JSONDecoder().decode([Enclosure].self, from: JSONEncoder().encode([Enclosure(url: URL(string: "https://m.example/t.jpg")!, isThumbnail: true)]))
        #expect(roundTrip.first?.isThumbnail == true)
    }
}
