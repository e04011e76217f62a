import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Converts a feed's bytes to UTF-8 with glibc's iconv, which knows every encoding feeds are
/// written in (windows-125x, KOI8, GB18030, Big5, EUC, Shift_JIS, IBM and EBCDIC code pages...).
enum TextDecoding {
    /// The iconv name for an encoding label as feeds and HTTP headers write it, or nil when iconv
    /// knows none. Labels follow the WHATWG Encoding Standard where it maps a label to a superset
    /// browsers use (ISO-8859-1 is read as windows-1252, GB2312 as GBK, Shift_JIS as Windows-31J).
    static func iconvName(forLabel label: String) -> String? {
        let key = label.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().replacingOccurrences(of: "_", with: "-")
        let candidate = aliases[key] ?? key
        return isKnown(candidate) ? candidate : nil
    }

    /// Whether the label names UTF-8 (or its ASCII subset), which needs no conversion.
    static func isUTF8(_ label: String) -> Bool {
        ["utf-8", "utf8", "unicode-1-1-utf-8", "us-ascii", "ascii"].contains(label.lowercased())
    }

    /// `data` in `encoding` (an iconv name) as UTF-8. A byte sequence that is invalid in that
    /// encoding becomes U+FFFD and reading goes on: one stray byte never costs the whole feed.
    static func utf8(_ data: Data, from encoding: String) -> Data? {
        convert(data, from: encoding, strict: false).map { Data($0.utf8) }
    }

    /// `data` in `encoding` as text, or nil when a byte sequence is invalid in it (a sequence
    /// cut off at the end is forgiven when `allowingCutEnd`, as in a sample of a longer text).
    static func strictString(_ data: Data, from encoding: String, allowingCutEnd: Bool) -> String? {
        guard let (utf8, cutEnd) = convert(data, from: encoding, strict: true), !cutEnd || allowingCutEnd else { return nil }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The conversion and whether it ended on a cut-off sequence; nil when iconv does not know
    /// `encoding`, or, when `strict`, at the first invalid sequence.
    private static func convert(_ data: Data, from encoding: String, strict: Bool) -> (utf8: [UInt8], cutEnd: Bool)? {
        let converter = iconv_open("UTF-8", encoding)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var output = [UInt8](repeating: 0, count: data.count * 2 + 64)
        var written = 0
        var invalid = false
        var cutEnd = false
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var input: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self))
            var inputLeft = raw.count
            while inputLeft > 0 {
                if output.count - written < 16 { output += [UInt8](repeating: 0, count: output.count) }
                let (result, failure) = output.withUnsafeMutableBytes { out -> (Int, Int32) in
                    var target: UnsafeMutablePointer<CChar>? = out.baseAddress!.advanced(by: written).assumingMemoryBound(to: CChar.self)
                    var targetLeft = out.count - written
                    let result = iconv(converter, &input, &inputLeft, &target, &targetLeft)
                    written = out.count - targetLeft
                    return (result, errno)
                }
                guard result == -1 else { break }
                switch failure {
                case E2BIG:
                    continue
                case EILSEQ:
                    invalid = true
                    if strict { return }
                    // One byte that is not a character: a replacement character, then the next.
                    appendReplacement(to: &output, at: &written)
                    input = input.map { $0 + 1 }
                    inputLeft -= 1
                default:
                    // EINVAL: a sequence cut off by the end of the document.
                    cutEnd = true
                    if !strict { appendReplacement(to: &output, at: &written) }
                    inputLeft = 0
                }
            }
        }
        if strict && invalid { return nil }
        output.removeSubrange(written...)
        return (output, cutEnd)
    }

    /// U+FFFD in UTF-8 at `written`, growing `output` when it is full.
    private static func appendReplacement(to output: inout [UInt8], at written: inout Int) {
        if output.count - written < 3 { output += [UInt8](repeating: 0, count: 64) }
        output.replaceSubrange(written..<(written + 3), with: [0xEF, 0xBF, 0xBD])
        written += 3
    }

    private static func isKnown(_ name: String) -> Bool {
        let converter = iconv_open("UTF-8", name)
        guard converter != iconv_t(bitPattern: -1) else { return false }
        iconv_close(converter)
        return true
    }

    /// Labels iconv does not take as written, or that browsers (and so feed authors) read as a
    /// superset of what they name.
    static let aliases: [String: String] = [
        "iso-8859-1": "WINDOWS-1252", "iso8859-1": "WINDOWS-1252", "latin1": "WINDOWS-1252",
        "latin-1": "WINDOWS-1252", "l1": "WINDOWS-1252", "x-cp1252": "WINDOWS-1252",
        "iso-8859-9": "WINDOWS-1254", "latin5": "WINDOWS-1254", "iso-8859-11": "WINDOWS-874",
        "tis-620": "WINDOWS-874", "x-cp1250": "WINDOWS-1250", "x-cp1251": "WINDOWS-1251",
        "gb2312": "GBK", "gb-2312-80": "GBK", "x-gbk": "GBK", "chinese": "GBK", "euc-cn": "GBK",
        "x-euc-cn": "GBK", "csgb2312": "GBK", "big5": "BIG5-HKSCS", "x-x-big5": "BIG5-HKSCS",
        "big5-hkscs": "BIG5-HKSCS", "cn-big5": "BIG5-HKSCS",
        "shift-jis": "CP932", "sjis": "CP932", "x-sjis": "CP932", "ms-kanji": "CP932",
        "windows-31j": "CP932", "csshiftjis": "CP932", "x-euc-jp": "EUC-JP", "cseucpkdfmtjapanese": "EUC-JP",
        "euc-kr": "CP949", "ks-c-5601-1987": "CP949", "ks-c-5601-1989": "CP949", "ksc5601": "CP949", "korean": "CP949",
        "windows-949": "CP949", "x-mac-roman": "MACINTOSH", "mac": "MACINTOSH", "x-mac-cyrillic": "MAC-CYRILLIC",
        "koi8": "KOI8-R", "koi": "KOI8-R", "cskoi8r": "KOI8-R", "koi8-ru": "KOI8-U",
        "ebcdic-cp-us": "IBM037", "cp037": "IBM037", "ebcdic-cp-ca": "IBM037", "ebcdic-international": "IBM500",
        "utf-16": "UTF-16", "unicode": "UTF-16", "utf-32": "UTF-32",
    ]
}
