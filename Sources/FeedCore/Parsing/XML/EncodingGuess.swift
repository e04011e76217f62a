import Foundation

/// Guesses the encoding of a document that declares none and is not UTF-8.
///
/// Each candidate's reading is scored by how much it looks like text: words in one script,
/// cased as words are, with no run of accented capitals where plain letters belong. Cyrillic
/// read as windows-1252 gives words such as "Íîâîñòè", windows-1251 read as KOI8-R gives
/// "нОВОСТИ", Chinese read as Shift_JIS gives half-width katakana: each scores below the
/// reading its author meant. Multi-byte encodings must read without an invalid sequence.
enum EncodingGuess {
    /// The candidates by iconv name and the label people know, in the order that breaks ties:
    /// windows-1252 first, the usual fallback.
    static let candidates: [(iconv: String, label: String)] = [
        ("WINDOWS-1252", "windows-1252"), ("WINDOWS-1251", "windows-1251"), ("KOI8-R", "KOI8-R"),
        // Chinese text in GB2312 never has a byte below 0xA1 in a pair, unlike Big5's or Shift_JIS's.
        ("GB2312", "GBK"), ("BIG5-HKSCS", "Big5"), ("CP932", "Shift_JIS"), ("EUC-JP", "EUC-JP"),
        ("CP949", "EUC-KR"), ("GB18030", "GB18030"),
    ]

    /// The label of the likeliest encoding of `data`, and its text as UTF-8.
    static func bestReading(of data: Data) -> (encoding: String, utf8: Data) {
        // The text that tells encodings apart is in the bytes above ASCII: score a sample of them.
        let sample = Data(data.prefix(64 * 1024))
        var best = (candidate: candidates[0], score: Int.min)
        for candidate in candidates {
            guard let text = TextDecoding.strictString(sample, from: candidate.iconv, allowingCutEnd: sample.count < data.count) else { continue }
            let score = plausibility(of: text)
            if score > best.score { best = (candidate, score) }
        }
        let encoding = best.candidate.iconv == "GB2312" ? "GBK" : best.candidate.iconv
        return (best.candidate.label, TextDecoding.utf8(data, from: encoding) ?? data)
    }

    /// Letters in plausible words, less letters in implausible ones. Kana and hangul count
    /// twice where they are common: a Chinese reading of Japanese or Korean bytes is all
    /// ideographs, and a reading of Chinese bytes as either has them only here and there.
    static func plausibility(of text: String) -> Int {
        var score = 0
        var word: [Unicode.Scalar] = []
        func finishWord() {
            defer { word.removeAll(keepingCapacity: true) }
            guard word.contains(where: { !$0.isASCII }) else { return }
            // Real Japanese or Korean is a quarter kana or hangul at least; an odd one is chance.
            let syllabic = word.filter { [.kana, .hangul].contains(script($0)) }.count
            let weight = word.count + (syllabic * 4 >= word.count ? syllabic : 0)
            score += isPlausible(word) ? weight : -2 * word.count
        }
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic { word.append(scalar) } else { finishWord() }
        }
        finishWord()
        return score
    }

    private static func isPlausible(_ word: [Unicode.Scalar]) -> Bool {
        let scripts = Set(word.map(script))
        guard scripts.count == 1, let script = scripts.first, script != .halfwidthKana, script != .other else {
            // Japanese mixes kanji and kana in one word.
            return scripts.isSubset(of: [.han, .kana])
        }
        switch script {
        case .latin:
            // Real Latin-script words carry an accent here and there, not on most letters.
            let accented = word.filter { !$0.isASCII }.count
            return accented * 2 <= word.count || word.count <= 3 ? isCased(word) : false
        case .cyrillic, .greek:
            return isCased(word)
        default:
            return true
        }
    }

    /// Lower case, upper case, or a capital then lower case: how words are written.
    private static func isCased(_ word: [Unicode.Scalar]) -> Bool {
        let rest = word.dropFirst()
        return rest.allSatisfy { !$0.properties.isUppercase } || word.allSatisfy { !$0.properties.isLowercase }
    }

    private enum Script { case latin, cyrillic, greek, han, kana, halfwidthKana, hangul, other }

    private static func script(_ scalar: Unicode.Scalar) -> Script {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF: .latin
        case 0x370...0x3FF: .greek
        case 0x400...0x52F: .cyrillic
        case 0x3040...0x30FF: .kana
        case 0xFF66...0xFF9F: .halfwidthKana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFF: .han
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: .hangul
        default: .other
        }
    }
}
