import CGtk
import Foundation
import XCTest

extension GtkTestEnvironment {
    /// Makes every GLib critical fail the test running. A critical is GTK or GLib handed what it
    /// cannot use, most often an object already finalized: ignored, the same mistake frees
    /// memory still in use and crashes a later test, far from its cause.
    static func failOnCriticals() {
        g_log_set_writer_func({ level, fields, count, data in
            if level.rawValue & G_LOG_LEVEL_CRITICAL.rawValue != 0 {
                let entries = UnsafeBufferPointer(start: fields, count: Int(count))
                // Where it was said from, through GTK's own frames, which the crash backtracer cannot walk.
                let callers = Thread.callStackSymbols.dropFirst(3).prefix(40).joined(separator: "\n")
                XCTFail("GLib critical (\(GtkTestEnvironment.field("GLIB_DOMAIN", in: entries) ?? "no domain")): "
                        + "\(GtkTestEnvironment.field("MESSAGE", in: entries) ?? "")\n\(callers)")
            }
            return g_log_writer_default(level, fields, count, data)
        }, nil, nil)
    }

    /// The text of the log field `key`, when the message has it.
    private static func field(_ key: String, in fields: UnsafeBufferPointer<GLogField>) -> String? {
        guard let field = fields.first(where: { String(cString: $0.key) == key }), let value = field.value else { return nil }
        guard field.length >= 0 else { return String(cString: value.assumingMemoryBound(to: CChar.self)) }
        return String(decoding: UnsafeRawBufferPointer(start: value, count: Int(field.length)), as: UTF8.self)
    }
}
