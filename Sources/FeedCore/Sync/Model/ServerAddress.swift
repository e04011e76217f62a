import Foundation

/// What an account's server address means for its password: whether the address itself holds
/// one, and whether the password would cross a network unencrypted.
public enum ServerAddress {
    /// Whether `url` names a user or a password (`http://bob:pw@host/`): kept in the address, a
    /// password would be stored in the database, listed, shown in messages and in the keyring's label.
    public static func holdsCredentials(_ url: URL) -> Bool {
        url.user != nil || url.password != nil
    }

    /// `url` as it may be shown: without a user name or password an account added before they
    /// were refused may hold.
    public static func shown(_ url: URL) -> String {
        guard holdsCredentials(url), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.user = nil
        components.password = nil
        return components.string ?? url.absoluteString
    }

    /// Whether the password would cross a network unencrypted: plain http to a host that is
    /// neither this computer nor on the local network.
    public static func sendsPasswordInClear(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "http" && !isLocal(url.host ?? "")
    }

    /// Loopback, private (RFC 1918, RFC 4193) and link-local addresses, `localhost` and names under
    /// `.localhost` and `.local` (mDNS): a network the person runs, or none.
    static func isLocal(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if name == "localhost" || name.hasSuffix(".localhost") || name.hasSuffix(".local") { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        if octets.count == 4, name.split(separator: ".").count == 4 {
            switch (octets[0], octets[1]) {
            case (127, _), (10, _), (192, 168), (169, 254): return true
            case (172, 16...31): return true
            default: return false
            }
        }
        guard name.contains(":") else { return false }
        return name == "::1" || name.hasPrefix("fe80:") || name.hasPrefix("fc") || name.hasPrefix("fd")
    }
}
