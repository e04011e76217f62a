import FeedCore

/// What the window's import bar and the command line say an import or export did.
public enum SubscriptionsReport {
    /// "Importing subscriptions: 3 of 12 new feeds fetched…", in the user's language.
    public static func progress(done: Int, total: Int) -> String {
        // TRANSLATORS: progress of an import; the first %d is the feeds fetched so far, the second all new feeds, which the form agrees with.
        trn("Importing subscriptions: %d of %d new feed fetched…", "Importing subscriptions: %d of %d new feeds fetched…", total)
            .filling(count: done, of: total)
    }

    /// What an import did, in sentences.
    public static func summary(of report: FeedLibrary.ImportReport) -> String {
        var sentences = [trn("%d subscription was imported.", "%d subscriptions were imported.", report.added)
            .filling(count: report.added)]
        if report.duplicates > 0 {
            sentences.append(trn("%d subscription already in the list was skipped.", "%d subscriptions already in the list were skipped.", report.duplicates)
                .filling(count: report.duplicates))
        }
        if report.failedFetches > 0 {
            sentences.append(trn("%d feed could not be fetched yet.", "%d feeds could not be fetched yet.", report.failedFetches)
                .filling(count: report.failedFetches))
        }
        return sentences.joined(separator: " ")
    }

    /// "12 subscriptions were exported to /path/file.opml", in the user's language.
    public static func exported(_ count: Int, to file: LocalFile) -> String {
        // TRANSLATORS: %d is the number of subscriptions, %@ the file's path.
        trn("%d subscription was exported to %@.", "%d subscriptions were exported to %@.", count)
            .filling(count: count).filling(file.displayName)
    }
}
