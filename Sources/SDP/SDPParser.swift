#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses RFC 8866 text into a ``SessionDescription``.
///
/// Line handling follows docs/sdp-jsep.md#sdp-grammar: split on LF, strip one trailing CR, skip empty lines. See
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

    /// A set of lowercase ASCII letters as a bit mask: a `Set<UInt8>` lookup hashed every line.
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
        var text = text
        text.makeContiguousUTF8()  // so that the bytes below are one buffer (a no-op for native strings)
        let outcome =
            text.utf8.withContiguousStorageIfAvailable { parse(bytes: $0, mode: mode) }
            ?? Array(text.utf8).withUnsafeBufferPointer { parse(bytes: $0, mode: mode) }
        return try outcome.get()
    }

    /// ``parseLines(_:mode:)`` with its error as a value: the buffer closures above cannot throw a typed error.
    static func parse(bytes: UnsafeBufferPointer<UInt8>, mode: ParseMode) -> Swift.Result<Result, SDPParseError> {
        do {
            return .success(try parseLines(bytes, mode: mode))
        } catch {
            return .failure(error)
        }
    }

    /// The parser proper, over the UTF-8 bytes of the text: lines and fields are index ranges, and a `String`
    /// is made only for the values the model keeps.
    static func parseLines(_ bytes: UnsafeBufferPointer<UInt8>, mode: ParseMode) throws(SDPParseError) -> Result {
        var sessionLines: [SDPLine] = []
        sessionLines.reserveCapacity(lineCount(bytes, from: 0))
        var media: [MediaDescription] = []
        var section = MediaDescription(kind: "", port: 0, proto: "", formats: [])  // the open one, when inMedia
        var inMedia = false
        var warnings: [SDPParseError] = []
        var lineEnding: LineEnding?
        var lineNumber = 0
        var versionLines = 0, originLines = 0, nameLines = 0  // at session level
        var fields: [SDPBytes] = []  // scratch space of the field splits
        fields.reserveCapacity(16)

        func problem(_ line: Int, _ reason: String) throws(SDPParseError) {
            let error = SDPParseError(line: line, reason: reason)
            if mode == .strict { throw error }
            warnings.append(error)
        }

        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            // memchr (vectorized in libc) finds the end of the line: a byte loop cost 6 instructions per byte.
            let index = firstIndex(of: lf, in: bytes, from: start) ?? bytes.count
            let hasNewline = index < bytes.count
            var end = index
            if end > start, bytes[end - 1] == cr {
                end -= 1
                if lineEnding == nil, hasNewline { lineEnding = .crlf }
            } else if lineEnding == nil, hasNewline {
                lineEnding = .lf
            }
            let lineStart = start
            start = hasNewline ? index + 1 : bytes.count
            if end == lineStart { continue }

            let letter = bytes[lineStart]
            guard end - lineStart >= 2, bytes[lineStart + 1] == UInt8(ascii: "="), letter < 0x80 else {
                try problem(lineNumber, "expected '<type>=<value>'")
                continue
            }
            let type = Character(Unicode.Scalar(letter))
            let value = bytes[(lineStart + 2)..<end]
            if !knownTypes.contains(letter) {
                try problem(lineNumber, "unknown line type '\(type)='")
            }
            if firstIndex(of: 0, in: bytes, from: lineStart + 2, to: end) != nil
                || firstIndex(of: cr, in: bytes, from: lineStart + 2, to: end) != nil
            {
                try problem(lineNumber, "NUL or CR inside a value")
            }
            if sessionLines.isEmpty, !inMedia, letter != UInt8(ascii: "v") {
                try problem(lineNumber, "a description must start with 'v=0'")
            }

            if letter == UInt8(ascii: "m") {
                guard var next = parseMediaLine(value, fields: &fields) else {
                    throw SDPParseError(line: lineNumber, reason: "malformed m= line, expected '<media> <port> <proto> <fmt> …'")
                }
                next.lines.reserveCapacity(lineCount(bytes, from: start))
                if inMedia { media.append(section) }
                section = next
                inMedia = true
                continue
            }
            if inMedia, sessionOnlyTypes.contains(letter) {
                try problem(lineNumber, "'\(type)=' is only allowed at session level")
            }
            if !inMedia {
                switch letter {
                case UInt8(ascii: "v"): versionLines += 1
                case UInt8(ascii: "o"): originLines += 1
                case UInt8(ascii: "s"): nameLines += 1
                default: break
                }
                if (letter == UInt8(ascii: "v") && versionLines == 2) || (letter == UInt8(ascii: "o") && originLines == 2)
                    || (letter == UInt8(ascii: "s") && nameLines == 2)
                {
                    try problem(lineNumber, "duplicate '\(type)=' line")
                }
            }
            if let reason = LineValidator.reason(type: letter, value: value, mode: mode, fields: &fields) {
                try problem(lineNumber, reason)
            }
            let line = SDPLine(type: type, value: value.string)
            if inMedia { section.lines.append(line) } else { sessionLines.append(line) }
        }
        if inMedia { media.append(section) }

        if sessionLines.isEmpty && media.isEmpty {
            throw SDPParseError(line: max(lineNumber, 1), reason: "empty description")
        }
        if originLines == 0 { try problem(max(lineNumber, 1), "missing 'o=' line") }
        if nameLines == 0 { try problem(max(lineNumber, 1), "missing 's=' line") }
        let description = SessionDescription(
            lines: sessionLines, media: media, lineEnding: lineEnding ?? .crlf,
            hasFinalLineEnding: bytes.last == lf)
        return Result(description: description, warnings: warnings)
    }

    /// The index of the first `byte` in `bytes[from..<to]` (default: to the end).
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int? = nil) -> Int? {
        let to = to ?? bytes.count
        guard from < to, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// An upper bound of the number of lines from `start` up to the next `m=` line (for reserving capacity).
    static func lineCount(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var count = 1
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "m"), bytes[index + 2] == UInt8(ascii: "=") {
                    return count
                }
                count += 1
            }
            index += 1
        }
        return count
    }

    /// Parses `<media> <port>[/<count>] <proto> 1*(SP <fmt>)` (RFC 8866 §5.14). `fields` is scratch space.
    static func parseMediaLine(_ value: SDPBytes, fields: inout [SDPBytes]) -> MediaDescription? {
        SDPGrammar.split(value, into: &fields)
        guard fields.count >= 4, !fields.contains(where: { $0.isEmpty }), SDPGrammar.isToken(fields[0]) else {
            return nil
        }
        let portField = fields[1]
        let slash = portField.firstIndex(of: UInt8(ascii: "/"))
        guard let port = SDPGrammar.decimal(portField[..<(slash ?? portField.endIndex)], as: UInt16.self) else {
            return nil
        }
        var count: Int?
        if let slash {
            // At most one slash: a second one leaves a non-digit in the count.
            guard let parsed = SDPGrammar.decimal(portField[(slash + 1)...], as: Int.self) else { return nil }
            count = parsed
        }
        // The proto is tokens joined by single slashes.
        let proto = fields[2]
        var previous = UInt8(ascii: "/")
        for byte in proto {
            if byte == UInt8(ascii: "/") {
                guard previous != byte else { return nil }
            } else if !SDPGrammar.isTokenChar(byte) {
                return nil
            }
            previous = byte
        }
        guard previous != UInt8(ascii: "/"), fields[3...].allSatisfy(SDPGrammar.isToken) else { return nil }
        return MediaDescription(
            kind: fields[0].string, port: Int(port), portCount: count, proto: proto.string,
            formats: fields[3...].map { $0.string })
    }
}
