/// Which components of one scrolled view may start a refresh while another one runs.
///
/// MJRefresh lets a header and a footer refresh at once, so a load can append rows to a list
/// that a refresh is about to replace. By default one refresh at a time: while any component
/// refreshes, the others start no pull and trigger nothing. The app's own `beginRefreshing()`
/// is never held back: it is the app's decision.
public enum RefreshExclusivity {
    /// For each component, whether it is held back, given which components are refreshing.
    public static func blocked(refreshing: [Bool], allowsSimultaneous: Bool) -> [Bool] {
        guard !allowsSimultaneous else { return refreshing.map { _ in false } }
        return refreshing.indices.map { index in
            refreshing.indices.contains { $0 != index && refreshing[$0] }
        }
    }
}
