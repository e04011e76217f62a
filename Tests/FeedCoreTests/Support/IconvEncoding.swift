import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `text` in `encoding` (an iconv name), to make test documents in legacy encodings; nil when
/// iconv does not know the encoding or the text has a character it lacks.
func iconvEncoded(_ text: String, in encoding: String) -> Data? {
    let converter = iconv_open(encoding, "UTF-8")
    guard converter != iconv_t(bitPattern: -1) else { return nil }
    defer { iconv_close(converter) }
    var input = Array(text.utf8).map { CChar(bitPattern: $0) }
    var output = [CChar](repeating: 0, count: input.count * 4 + 16)
    let written: Int? = input.withUnsafeMutableBufferPointer { inputBuffer in
        output.withUnsafeMutableBufferPointer { outputBuffer in
            var source = inputBuffer.baseAddress
            var sourceLeft = inputBuffer.count
            var target = outputBuffer.baseAddress
            var targetLeft = outputBuffer.count
            guard iconv(converter, &source, &sourceLeft, &target, &targetLeft) != -1 else { return nil }
            return outputBuffer.count - targetLeft
        }
    }
    return written.map { Data(output[..<$0].map { UInt8(bitPattern: $0) }) }
}
