import CIntl
import Glibc

/// The two programs `feed-reader` execs, found as `WindowProgram.path` finds the window's:
/// beside the launcher in a build folder, else in `PREFIX/libexec/feed-reader`.
enum LauncherProgram {
    case window, commands

    var name: String {
        switch self {
        case .window: "feed-reader-window"
        case .commands: "feed-reader-commands"
        }
    }

    var path: String {
        let folder = Self.executableFolder
        let beside = folder + "/" + name
        if access(beside, X_OK) == 0 { return beside }
        return Self.parent(of: folder) + "/libexec/feed-reader/" + name
    }

    /// Says, in the user's language, that not even the window program could be started
    /// (`error`, errno's value); returns the exit status.
    static func reportFailure(_ error: Int32) -> Int32 {
        setlocale(LC_ALL, "")
        let domain = "feed-reader"
        bindtextdomain(domain, localeDirectory)
        bind_textdomain_codeset(domain, "UTF-8")
        let program = LauncherProgram.window.path
        // The commands' program's message, from the same catalog. Untranslated, dgettext hands
        // back the msgid's own pointer: it is read while the msgid is still alive.
        let msgid = "The window program %@ could not be started."
        let template = msgid.withCString { String(cString: dgettext(domain, $0)) }
        let message = template.split(separator: "%@", maxSplits: 1, omittingEmptySubsequences: false).joined(separator: program)
        let line = "feed-reader: " + message + " (" + String(cString: strerror(error)) + ")\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        return 1
    }

    /// The folder of the running executable (/proc/self/exe, which holds when it was started
    /// through PATH or a symbolic link).
    private static let executableFolder: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        let path = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        return parent(of: path)
    }()

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Where the app's catalogs are, found as `LocaleDirectory.find()` finds them:
    /// `$REFRESHGTK_LOCALEDIR`; `locale` in the executable's folder or one of the three above
    /// it (a build tree); else `PREFIX/share/locale`.
    private static var localeDirectory: String {
        if let variable = getenv("REFRESHGTK_LOCALEDIR"), variable.pointee != 0 { return String(cString: variable) }
        var folder = executableFolder
        for _ in 0..<4 where folder != "/" {
            var status = stat()
            if stat(folder + "/locale", &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return folder + "/locale" }
            folder = parent(of: folder)
        }
        return parent(of: executableFolder) + "/share/locale"
    }
}
