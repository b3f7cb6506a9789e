public import Foundation

/// One complete WebSocket message: fragments are reassembled before delivery.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (valid UTF-8; invalid text closes the connection with 1007).
    case text(String)
    /// A binary message.
    case binary(Data)

    /// True for binary messages.
    public var isBinary: Bool {
        if case .binary = self { return true }
        return false
    }

    /// The payload size in bytes.
    public var byteCount: Int {
        switch self {
        case .text(let s): s.utf8.count
        case .binary(let d): d.count
        }
    }
}

/// A WebSocket close status code (RFC 6455 §7.4) with the values this package uses by name.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: normal closure.
    public static let normal = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (server shutdown).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: protocol error.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1006: the connection dropped without a close frame (never sent on the wire).
    public static let abnormal = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message was not valid UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: policy violation (used for a slow consumer whose outbound queue overflowed).
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message exceeded the configured maximum size.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1011: internal error.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    public var description: String { String(rawValue) }
}

/// How a connection ended.
public struct WebSocketCloseInfo: Sendable, Hashable, CustomStringConvertible {
    /// The close code: the peer's, ours, or 1006 when no close frame was exchanged.
    public var code: WebSocketCloseCode
    /// The close reason, or a description of what went wrong.
    public var reason: String
    /// True when this side started the close.
    public var initiatedLocally: Bool

    public var description: String {
        let who = initiatedLocally ? "closed locally" : "closed by peer"
        return reason.isEmpty ? "\(who) (\(code))" : "\(who) (\(code)): \(reason)"
    }
}
