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
    static let knownTypes: Set<UInt8> = Set("vosiuepcbtrzkma".utf8)
    /// Lines that may only appear before the first `m=` (RFC 8866 §5 session grammar).
    static let sessionOnlyTypes: Set<UInt8> = Set("vosuepztr".utf8)

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

        let utf8 = text.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            lineNumber += 1
            let newline = utf8[start...].firstIndex(of: UInt8(ascii: "\n"))
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
            if value.utf8.contains(where: { $0 == 0 || $0 == UInt8(ascii: "\r") }) {
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
