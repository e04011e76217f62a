import Foundation
import TestProcesses
import Testing

/// RefreshCore is pure Swift: it must never import GTK or anything of its stack.
/// meson-helpers/check-core-purity makes the same check for the build scripts.
enum CorePurity {
    /// The package root, found from this file's path (Tests/RefreshCoreTests/CorePurityTests.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let coreSources = packageRoot.appendingPathComponent("Library/Sources/RefreshCore")

    /// Every file under Library/Sources/RefreshCore.
    static func coreFiles() -> [URL] {
        let keys: [URLResourceKey] = [.isRegularFileKey]
        guard let walker = FileManager.default.enumerator(at: coreSources, includingPropertiesForKeys: keys) else {
            return []
        }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    /// Whether a module (or C header directory) belongs to GTK's stack.
    static func isForbidden(_ module: String) -> Bool {
        let name = module.lowercased()
        guard name != "glibc" else { return false }  // the C library, not GLib
        let stack = ["gtk", "gdk", "gsk", "glib", "gobject", "cairo", "pango", "graphene", "adwaita"]
        return stack.contains { name.contains($0) } || ["gio", "cgio", "adw", "cadw"].contains(name)
    }

    /// The module a line imports (Swift `import`, with attributes and kinds) or the first part
    /// of the header a C `#include`/`#import` names; nil for any other line.
    static func importedModule(in line: String) -> String? {
        var rest = line.drop(while: \.isWhitespace)
        if rest.first == "#" {
            rest = rest.dropFirst().drop(while: \.isWhitespace)
            guard rest.hasPrefix("include") || rest.hasPrefix("import") else { return nil }
            rest = rest.drop(while: \.isLetter).drop(while: \.isWhitespace)
            guard rest.first == "<" || rest.first == "\"" else { return nil }
            let header = rest.dropFirst().prefix { !"/>\".".contains($0) }
            return header.isEmpty ? nil : String(header)
        }
        func isIdentifier(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_"
        }
        while rest.first == "@" {
            rest = rest.dropFirst().drop(while: isIdentifier)
            if rest.first == "(" {
                guard let close = rest.firstIndex(of: ")") else { return nil }
                rest = rest[rest.index(after: close)...]
            }
            rest = rest.drop(while: \.isWhitespace)
        }
        guard rest.hasPrefix("import"), rest.dropFirst(6).first?.isWhitespace == true else { return nil }
        rest = rest.dropFirst(6).drop(while: \.isWhitespace)
        let kinds: Set = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        let word = rest.prefix(while: isIdentifier)
        if kinds.contains(String(word)), rest.dropFirst(word.count).first?.isWhitespace == true {
            rest = rest.dropFirst(word.count).drop(while: \.isWhitespace)
        }
        let module = rest.prefix(while: isIdentifier)
        return module.isEmpty ? nil : String(module)
    }

    /// The forbidden imports in a source text, as "line: text".
    static func violations(in source: String) -> [String] {
        source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            guard let module = importedModule(in: String(line)), isForbidden(module) else { return nil }
            return "\(index + 1): \(line)"
        }
    }
}

@Suite("RefreshCore stays pure Swift")
struct CorePurityTests {
    @Test("no file under Library/Sources/RefreshCore imports GTK, GLib, Cairo or the like")
    func noGtkImports() throws {
        let files = CorePurity.coreFiles()
        #expect(files.contains { $0.lastPathComponent == "RefreshMachine.swift" },
                "Library/Sources/RefreshCore not found from \(#filePath)")
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            let violations = CorePurity.violations(in: source)
            #expect(violations.isEmpty, "\(file.path) imports GTK's stack: \(violations)")
        }
    }

    @Test("the check recognises imports of GTK's stack in every form", arguments: [
        ("import CGtk", "CGtk"),
        ("import Gtk", "Gtk"),
        ("@preconcurrency import CGtk", "CGtk"),
        ("  @_implementationOnly import GLib", "GLib"),
        ("@_exported import Cairo", "Cairo"),
        ("@_spi(Private) @preconcurrency import GObject", "GObject"),
        ("import struct CGtk.GtkWidget", "CGtk"),
        ("import func Gio.g_file_new_for_path", "Gio"),
        ("import CPango", "CPango"),
        ("import GLibObject", "GLibObject"),
        ("import glib", "glib"),
        ("#include <gtk/gtk.h>", "gtk"),
        ("# include \"glib-object.h\"", "glib-object"),
        ("#include <gio/gio.h>", "gio"),
    ])
    func detectsForbidden(line: String, module: String) {
        #expect(CorePurity.importedModule(in: line) == module)
        #expect(CorePurity.isForbidden(module))
        #expect(CorePurity.violations(in: "import Foundation\n\(line)\n") == ["2: \(line)"])
    }

    @Test("the check leaves other lines alone", arguments: [
        "import Foundation",
        "import Synchronization",
        "import Glibc",
        "@preconcurrency import Glibc",
        "import Region",
        "@testable import RefreshCore",
        "// import CGtk",
        "/// Unlike RefreshGtk, this never does `import CGtk`.",
        "let importance = \"import CGtk\"",
        "#if canImport(Glibc)",
        "#include \"shim.h\"",
        "#include \"region.h\"",
    ])
    func allowsOthers(line: String) {
        #expect(CorePurity.violations(in: line).isEmpty)
    }

    @Test("meson-helpers/check-core-purity passes on this package and fails on an import of CGtk")
    func script() throws {
        let script = CorePurity.packageRoot.appendingPathComponent("meson-helpers/check-core-purity")
        #expect(FileManager.default.isExecutableFile(atPath: script.path))

        let clean = try run(script, root: CorePurity.packageRoot)
        #expect(clean.status == 0, "\(clean.output)")

        let tainted = FileManager.default.temporaryDirectory
            .appendingPathComponent("core-purity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tainted) }
        let core = tainted.appendingPathComponent("Library/Sources/RefreshCore")
        try FileManager.default.createDirectory(at: core, withIntermediateDirectories: true)
        try "import Foundation\nimport Glibc\n"
            .write(to: core.appendingPathComponent("Fine.swift"), atomically: true, encoding: .utf8)
        #expect(try run(script, root: tainted).status == 0)

        try "import Foundation\n@preconcurrency import CGtk\n"
            .write(to: core.appendingPathComponent("Leak.swift"), atomically: true, encoding: .utf8)
        let failed = try run(script, root: tainted)
        #expect(failed.status != 0)
        #expect(failed.output.contains("Leak.swift:2"), "\(failed.output)")
    }

    private func run(_ script: URL, root: URL) throws -> (status: Int32, output: String) {
        let (status, output, errors) = try Subprocess("/bin/bash", [script.path, root.path]).wait()
        return (status, output + errors)
    }
}
