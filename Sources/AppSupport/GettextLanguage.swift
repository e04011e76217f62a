import CGLib
import Foundation

/// gettext's own language, the one GTK, libadwaita and WebKit say their texts in (a file
/// dialog, a password row's Show Text, the shortcuts window's search), kept with the language
/// the app speaks.
///
/// gettext reads it from `LANGUAGE` only. Changing an environment variable while other threads
/// may read the environment is safe only as a replacement: glibc swaps the variable's pointer
/// and never frees the old string, while adding a variable may move the whole environment.
/// So ``prepare()`` makes sure `LANGUAGE` exists while the process has one thread, and
/// ``follow(_:)`` only ever replaces it.
public enum GettextLanguage {
    /// `LANGUAGE` as the process found it, empty when unset (which gettext reads the same way):
    /// what the system's language returns to.
    private static let system: String = ProcessInfo.processInfo.environment["LANGUAGE"] ?? ""

    /// Gives `LANGUAGE` its value of now, creating it when unset; call before any thread starts.
    public static func prepare() {
        setenv("LANGUAGE", system, 1)
    }

    /// Makes gettext translate in `languages`, most wanted first (nil: the system's language),
    /// from the next text it is asked for.
    public static func follow(_ languages: [String]?) {
        // Read before the first change, so that "the system's" is never a language chosen since
        // (a process that did not call prepare(), such as the tests).
        let system = system
        let value = languages.map { $0.joined(separator: ":") } ?? system
        guard getenv("LANGUAGE").map({ String(cString: $0) }) != value else { return }
        setenv("LANGUAGE", value, 1)
        cglib_gettext_forget_translations()
    }
}
