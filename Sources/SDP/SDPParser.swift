/// Parses RFC 8866 text into a ``SessionDescription``.
///
/// Line handling follows JSEP-SDP §5.1: split on LF, strip one trailing CR, skip empty lines. See
/// ``ParseMode`` for what strict and lenient parsing accept.
public enum SDPParser {
    /// A parsed description and, in lenient mode, the problems that were tolerated.
    public struct Result: Sendable {
        /// The description.
        public var description: SessionDescription
        /// Problems that strict mode would have rejected; always empty in strict mode.
        public var warnings: [SDPParseError]
    }

    /// The type letters of RFC 8866 §5 (`k=` is obsolete but still a known letter).
    static let knownTypes = LetterSet("vosiuepcbtrzkma")
    /// Lines that may only appear before the first `m=` (RFC 8866 §5 session grammar).
    static let sessionOnlyTypes = LetterSet("vosuepztr")

    /// A set of lowercase ASCII letters as a bit mask: a `Set<UInt8>` lookup hashed every line (issue 9).
    struct LetterSet {
        let mask: UInt32

        init(_ letters: String) {
            mask = letters.utf8.reduce(0) { $0 | 1 << UInt32($1 - UInt8(ascii: "a")) }
        }

        func contains(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) && mask & 1 << UInt32(byte - UInt8(ascii: "a")) != 0
        }
    }

    /// Parses `text`.
    /// - Throws: ``SDPParseError`` naming the first offending line (strict), or a malformed `m=` line or an
    ///   input without any line (both modes).
    public static func parse(_ text: String, mode: ParseMode = .strict) throws(SDPParseError) -> Result {
        var sessionLines: [SDPLine] = []
        var media: [MediaDescription] = []
        var warnings: [SDPParseError] = []
        var lineEnding: LineEnding?
        var lineNumber = 0
        var seen: [UInt8: Int] = [:]

        func problem(_ line: Int, _ reason: String) throws(SDPParseError) {
            let error = SDPParseError(line: line, reason: reason)
            if mode == .strict { throw error }
            warnings.append(error)
        }

        var text = text
        text.makeContiguousUTF8()  // so the byte scans below run over one buffer (a no-op for native strings)
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            lineNumber += 1
            let newline = firstIndex(of: UInt8(ascii: "\n"), in: utf8, from: start, to: utf8.endIndex)
            var end = newline ?? utf8.endIndex
            let nextStart = newline.map { utf8.index(after: $0) } ?? utf8.endIndex
            if end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") {
                end = utf8.index(before: end)
                if lineEnding == nil, newline != nil { lineEnding = .crlf }
            } else if lineEnding == nil, newline != nil {
                lineEnding = .lf
            }
            let raw = Substring(utf8[start..<end])  // byte slicing: no grapheme checks on a hot path
            start = nextStart
            if raw.isEmpty { continue }

            let bytes = raw.utf8
            guard bytes.count >= 2, bytes[bytes.index(after: bytes.startIndex)] == UInt8(ascii: "="),
                let letter = bytes.first, letter < 0x80
            else {
                try problem(lineNumber, "expected '<type>=<value>'")
                continue
            }
            let type = Character(Unicode.Scalar(letter))
            // Byte-wise: a combining mark after "=" must stay in the value, not merge into the separator.
            let value = Substring(bytes.dropFirst(2))
            if !knownTypes.contains(letter) {
                try problem(lineNumber, "unknown line type '\(type)='")
            }
            if containsNULOrCR(utf8, from: value.startIndex, to: value.endIndex) {
                try problem(lineNumber, "NUL or CR inside a value")
            }
            if sessionLines.isEmpty, media.isEmpty, letter != UInt8(ascii: "v") {
                try problem(lineNumber, "a description must start with 'v=0'")
            }

            if letter == UInt8(ascii: "m") {
                guard let section = parseMediaLine(value) else {
                    throw SDPParseError(line: lineNumber, reason: "malformed m= line, expected '<media> <port> <proto> <fmt> …'")
                }
                media.append(section)
                continue
            }
            if !media.isEmpty, sessionOnlyTypes.contains(letter) {
                try problem(lineNumber, "'\(type)=' is only allowed at session level")
            }
            if media.isEmpty, "vos".utf8.contains(letter) {
                seen[letter, default: 0] += 1
                if seen[letter] == 2 { try problem(lineNumber, "duplicate '\(type)=' line") }
            }
            if let reason = LineValidator.reason(type: letter, value: value, mode: mode) {
                try problem(lineNumber, reason)
            }
            let line = SDPLine(type: type, value: String(value))
            if media.isEmpty { sessionLines.append(line) } else { media[media.count - 1].lines.append(line) }
        }

        if sessionLines.isEmpty && media.isEmpty {
            throw SDPParseError(line: max(lineNumber, 1), reason: "empty description")
        }
        for (letter, name) in [(UInt8(ascii: "o"), "o="), (UInt8(ascii: "s"), "s=")] where seen[letter] == nil {
            try problem(max(lineNumber, 1), "missing '\(name)' line")
        }
        let description = SessionDescription(
            lines: sessionLines, media: media, lineEnding: lineEnding ?? .crlf,
            hasFinalLineEnding: text.utf8.last == UInt8(ascii: "\n"))
        return Result(description: description, warnings: warnings)
    }

    /// The first `byte` in `utf8[from..<to]`, scanning the contiguous UTF-8 storage when there is one (the
    /// generic index walk of `String.UTF8View` cost about 40 instructions per byte, issue 9).
    static func firstIndex(of byte: UInt8, in utf8: String.UTF8View, from: String.Index, to: String.Index)
        -> String.Index?
    {
        let lower = utf8.distance(from: utf8.startIndex, to: from)
        let upper = utf8.distance(from: utf8.startIndex, to: to)
        let found = utf8.withContiguousStorageIfAvailable { bytes in bytes[lower..<upper].firstIndex(of: byte) }
        switch found {
        case .some(let offset?): return utf8.index(utf8.startIndex, offsetBy: offset)
        case .some(nil): return nil
        case nil: return utf8[from..<to].firstIndex(of: byte)
        }
    }

    /// Whether `utf8[from..<to]` holds a NUL or a CR.
    static func containsNULOrCR(_ utf8: String.UTF8View, from: String.Index, to: String.Index) -> Bool {
        func bad(_ byte: UInt8) -> Bool { byte == 0 || byte == UInt8(ascii: "\r") }
        let lower = utf8.distance(from: utf8.startIndex, to: from)
        let upper = utf8.distance(from: utf8.startIndex, to: to)
        return utf8.withContiguousStorageIfAvailable { bytes in bytes[lower..<upper].contains(where: bad) }
            ?? utf8[from..<to].contains(where: bad)
    }

    /// Parses `<media> <port>[/<count>] <proto> 1*(SP <fmt>)` (RFC 8866 §5.14).
    static func parseMediaLine(_ value: Substring) -> MediaDescription? {
        let fields = SDPGrammar.fields(value)
        guard fields.count >= 4, !fields.contains(where: \.isEmpty), SDPGrammar.isToken(fields[0]) else {
            return nil
        }
        let portParts = fields[1].split(separator: "/", omittingEmptySubsequences: false)
        guard portParts.count <= 2, let port = SDPGrammar.decimal(portParts[0], as: UInt16.self) else { return nil }
        var count: Int?
        if portParts.count == 2 {
            guard let parsed = SDPGrammar.decimal(portParts[1], as: Int.self) else { return nil }
            count = parsed
        }
        let proto = fields[2]
        guard proto.split(separator: "/", omittingEmptySubsequences: false).allSatisfy(SDPGrammar.isToken),
            fields[3...].allSatisfy(SDPGrammar.isToken)
        else { return nil }
        return MediaDescription(
            kind: String(fields[0]), port: Int(port), portCount: count, proto: String(proto),
            formats: fields[3...].map(String.init))
    }
}
