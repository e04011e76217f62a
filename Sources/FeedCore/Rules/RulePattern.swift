import CPCRE2
import Synchronization

/// A condition's comparison compiled once, by PCRE2, to be matched against many entries.
///
/// Each match may do a bounded amount of work (`Limits`): a regular expression that backtracks
/// without end on a long title gives up on that entry with `.tooComplex` instead of holding a
/// refresh or a sync. Every comparison, the plain ones too, goes through PCRE2, whose literal
/// search and case folding are faster than Foundation's on Linux.
final class RulePattern: @unchecked Sendable {
    /// The work one match may take, in PCRE2's units: a match that needs more gives up.
    enum Limits {
        /// Backtracking steps: a regular expression a person writes needs hundreds, a runaway
        /// one on a 1,000-character title billions; this many take about a millisecond.
        static let match: UInt32 = 100_000
        /// Nested backtracking depth.
        static let depth: UInt32 = 10_000
        /// The heap a match may use for its backtracking, in KiB.
        static let heapKiB: UInt32 = 2_048
    }

    /// What one match found.
    enum Outcome: Equatable {
        case match, noMatch
        /// The match needed more than `Limits` allow: neither a match nor a mismatch.
        case tooComplex
    }

    private let code: OpaquePointer
    private let context: OpaquePointer
    /// Whether `code` went through PCRE2's JIT compiler, which happens before its first match:
    /// of a hundred rules' patterns the screen lets few ever run, and compiling them all up front
    /// cost a sync more than matching. Read without the lock once set.
    private let isJITCompiled = Atomic<Bool>(false)
    private let jitLock = Mutex<Void>(())

    /// Compiles `pattern` for `comparison`: literal for all but `.matches`.
    init(_ comparison: RuleCondition.Comparison, _ pattern: String, caseSensitive: Bool) throws(RuleError) {
        var options = UInt32(PCRE2_UTF) | UInt32(PCRE2_MATCH_INVALID_UTF)
        if !caseSensitive { options |= UInt32(PCRE2_CASELESS) }
        let source: String
        switch comparison {
        case .contains:
            source = pattern
            options |= UInt32(PCRE2_LITERAL)
        case .is:
            source = pattern
            options |= UInt32(PCRE2_LITERAL) | UInt32(PCRE2_ANCHORED) | UInt32(PCRE2_ENDANCHORED)
        case .word:
            // Not inside a longer word on either side: \w in Unicode's sense (UCP).
            source = "(?<!\\w)(?:" + Self.escaped(pattern) + ")(?!\\w)"
            options |= UInt32(PCRE2_UCP)
        case .matches:
            source = pattern
            options |= UInt32(PCRE2_UCP)
        }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled = source.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UInt8.self) {
                pcre2_compile_8($0.baseAddress, $0.count - 1, options, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            let prefix = source.utf8.prefix(errorOffset)
            throw .invalidPattern(pattern: pattern, position: String(decoding: prefix, as: UTF8.self).count + 1)
        }
        code = compiled
        context = pcre2_match_context_create_8(nil)
        pcre2_set_match_limit_8(context, Limits.match)
        pcre2_set_depth_limit_8(context, Limits.depth)
        pcre2_set_heap_limit_8(context, Limits.heapKiB)
    }

    deinit {
        pcre2_match_context_free_8(context)
        pcre2_code_free_8(code)
    }

    /// PCRE2's match data for one caller at a time, reused across matches and patterns: applying
    /// 100 rules to an entry would otherwise allocate and free it 100 times.
    final class Scratch {
        fileprivate let data: OpaquePointer

        init() { data = pcre2_match_data_create_8(1, nil) }

        deinit { pcre2_match_data_free_8(data) }
    }

    /// Whether `text` matches, within the limits.
    func match(_ text: String) -> Outcome { match(text, in: Scratch()) }

    /// Whether `text` matches, within the limits, with `scratch`'s match data.
    func match(_ text: String, in scratch: Scratch) -> Outcome {
        var text = text
        return text.withUTF8 { match($0, in: scratch) }
    }

    /// Whether `text`, UTF-8 bytes, matches, within the limits, with `scratch`'s match data.
    func match(_ text: UnsafeBufferPointer<UInt8>, in scratch: Scratch) -> Outcome {
        if !isJITCompiled.load(ordering: .acquiring) { compileJIT() }
        let result = pcre2_match_8(code, text.baseAddress ?? UnsafePointer(bitPattern: 1), text.count, 0, 0, scratch.data, context)
        switch result {
        // 0: a match with more groups than the one pair of offsets kept.
        case 0...: return .match
        case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT, PCRE2_ERROR_JIT_STACKLIMIT: return .tooComplex
        default: return .noMatch
        }
    }

    /// JIT-compiles `code` once, when the machine allows it (the interpreter matches otherwise,
    /// under the same limits); another thread wanting to match meanwhile waits for it.
    private func compileJIT() {
        jitLock.withLock { _ in
            guard !isJITCompiled.load(ordering: .relaxed) else { return }
            pcre2_jit_compile_8(code, UInt32(PCRE2_JIT_COMPLETE))
            isJITCompiled.store(true, ordering: .releasing)
        }
    }

    /// `literal` as a PCRE2 pattern that matches it alone: every ASCII character but letters and
    /// digits escaped (a backslash before those is always literal), the rest as it is.
    private static func escaped(_ literal: String) -> String {
        var result = ""
        for scalar in literal.unicodeScalars {
            if scalar.isASCII, !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) { result.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
