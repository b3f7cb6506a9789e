/// Why a candidate line breaks the RFC 8839 §5.1 grammar.
public struct CandidateParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the field.
    public var reason: String

    /// An error for `reason`.
    public init(reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}
