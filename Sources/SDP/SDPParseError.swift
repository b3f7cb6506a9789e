/// Why a session description could not be parsed, and where.
///
/// Like the W3C `RTCError` with `errorDetail: "sdp-syntax-error"` (docs/sdp-jsep.md#apply-errors), it names the 1-based
/// physical line so that a developer can find the culprit in the original text.
public struct SDPParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number in the input text.
    public var line: Int
    /// What is wrong with that line, in words a developer can act on.
    public var reason: String

    /// An error at `line` for `reason`.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line N: reason`, the form `sdp-tool` prints.
    public var description: String { "line \(line): \(reason)" }
}
