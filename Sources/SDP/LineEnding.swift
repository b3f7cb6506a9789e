/// The line terminator a description was written with.
///
/// RFC 8866 §5 mandates CRLF but says parsers "SHOULD be tolerant and also accept lines terminated with a
/// single newline character"; the parser records which one it saw so that serialization reproduces it.
public enum LineEnding: String, Hashable, Sendable, Codable {
    /// `\r\n`, the RFC form.
    case crlf
    /// `\n` alone.
    case lf

    /// The terminator's characters.
    public var text: String { self == .crlf ? "\r\n" : "\n" }
}
