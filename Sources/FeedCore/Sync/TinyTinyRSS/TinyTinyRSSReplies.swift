import Foundation

/// The content of a reply with `status` 1.
struct TinyTinyRSSFailure: Decodable {
    var error: String
}

struct TinyTinyRSSLogin: Decodable {
    var session_id: String
}

struct TinyTinyRSSCategory: Decodable {
    var id: LenientNumber
    var title: String
}

struct TinyTinyRSSFeed: Decodable {
    var id: LenientNumber
    var title: String?
    var feed_url: String
    var cat_id: LenientNumber?
}

/// `getFeedTree`'s answer: categories (`CAT:N`, nested when the user nests them) holding feeds
/// (`FEED:N`); the special category -1 holds the virtual feeds, -4 being every article.
struct TinyTinyRSSFeedTree: Decodable {
    var categories: Root

    struct Root: Decodable {
        var items: [Node]
    }

    /// A category or a feed, told apart by its id's prefix: feeds inside categories have no `type`.
    struct Node: Decodable {
        var id: String
        var bare_id: LenientNumber
        var name: String?
        var unread: LenientNumber?
        var items: [Node]?

        var isCategory: Bool { id.hasPrefix("CAT:") }
        var isFeed: Bool { id.hasPrefix("FEED:") }
    }

    /// Whether the user files feeds in categories: without, the tree lists its feeds flat.
    var hasCategories: Bool { categories.items.contains(where: \.isCategory) }

    /// The unread count of the virtual feed of every article.
    var unreadTotal: Int? {
        for category in categories.items {
            for node in category.items ?? [] where node.isFeed && node.bare_id.text == "-4" {
                return node.unread?.int64.map { Int($0) }
            }
        }
        return nil
    }

    /// The user's categories, nested ones too, in the tree's order.
    func folders() -> [(id: RemoteID, title: String)] {
        var found: [(id: RemoteID, title: String)] = []
        func visit(_ nodes: [Node]) {
            for node in nodes where node.isCategory {
                if (node.bare_id.int64 ?? 0) > 0 { found.append((node.bare_id.text, node.name ?? "")) }
                visit(node.items ?? [])
            }
        }
        visit(categories.items)
        return found
    }

    /// The user's labels, each by its feed id (-1025 and below), from the tree's category -2;
    /// empty when the user has none (the tree then leaves the category out).
    func labels() -> [(id: Int, name: String)] {
        categories.items.filter { $0.isCategory && $0.bare_id.text == "-2" }.flatMap { $0.items ?? [] }.compactMap { node in
            guard node.isFeed, let id = node.bare_id.int64, id < -1024 else { return nil }
            return (Int(id), node.name ?? "")
        }
    }

    /// The user's feeds, each in the innermost category holding it (nil: uncategorized).
    func placedFeeds() -> [(id: RemoteID, title: String?, categoryID: RemoteID?)] {
        var found: [(id: RemoteID, title: String?, categoryID: RemoteID?)] = []
        func visit(_ nodes: [Node], in category: RemoteID?) {
            for node in nodes {
                let id = node.bare_id.int64 ?? 0
                if node.isCategory {
                    // Labels (-2) and the virtual feeds (-1) are not subscriptions.
                    guard id >= 0 else { continue }
                    visit(node.items ?? [], in: id > 0 ? node.bare_id.text : nil)
                } else if node.isFeed, id > 0 {
                    found.append((node.bare_id.text, node.name, category))
                }
            }
        }
        visit(categories.items, in: nil)
        return found
    }
}

/// One of `getLabels`' labels: its id is the label's feed id, -1025 and below.
struct TinyTinyRSSLabel: Decodable {
    var id: LenientNumber
    var caption: String
}

/// A headline with only its id, for the unread and starred id lists.
struct TinyTinyRSSHeadlineID: Decodable {
    var id: LenientNumber
}

/// The `status` object of `subscribeToFeed`: code 0 already subscribed, 1 added, 2 to 6 refused.
struct TinyTinyRSSSubscription: Decodable {
    var status: Status

    struct Status: Decodable {
        var code: Int
        var message: String?
    }
}

/// Any content, when only the status matters.
struct TinyTinyRSSIgnored: Decodable {
    init(from decoder: any Decoder) throws {}
}
