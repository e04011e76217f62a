import Testing

/// The tests against the one FreshRSS of the test process, one at a time: one of them switches the
/// server's API off for a moment.
@Suite("FreshRSS", .serialized)
enum FreshRSSTests {}
