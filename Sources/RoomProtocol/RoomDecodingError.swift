public import JSONRPC

/// A Room message whose params (or result) do not have the shape given in docs/wire-protocol.md#room-requests, naming
/// the member at fault so that a server can answer -32602 with a message naming the param
/// (docs/wire-protocol.md#error-codes).
public struct RoomDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// The params (or result) are absent or not a JSON object.
        case notAnObject
        /// A required member is absent.
        case missing
        /// A member has the wrong JSON type (or `null`); `expected` reads like "a string".
        case wrongType(expected: String)
        /// A member has the right type but an unusable value (for example a fractional index).
        case invalidValue(String)
    }

    /// Which message was decoded, e.g. `joinRoom params` or `iceCandidate notification`.
    public var context: String
    /// The member at fault as a dotted path (`sdpMLineIndex`, `value[0].id`); `nil` for the whole object.
    public var member: String?
    /// What is wrong with it.
    public var problem: Problem

    /// Creates a decoding error.
    public init(context: String, member: String?, problem: Problem) {
        self.context = context
        self.member = member
        self.problem = problem
    }

    public var description: String {
        let subject = member.map { "\(context): '\($0)'" } ?? context
        switch problem {
        case .notAnObject: return "\(subject) must be a JSON object"
        case .missing: return "\(subject) is missing"
        case .wrongType(let expected): return "\(subject) must be \(expected)"
        case .invalidValue(let detail): return "\(subject) is invalid: \(detail)"
        }
    }

    /// The -32602 error a server answers with (docs/wire-protocol.md#error-codes: the message names the param).
    public var invalidParams: RPCErrorObject { .invalidParams(description) }
}
