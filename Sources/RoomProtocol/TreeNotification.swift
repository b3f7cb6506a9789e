public import JSONRPC

/// One Tree notification with its typed params (docs/wire-protocol.md#tree lists one: `iceCandidate`).
public enum TreeNotification: Sendable, Hashable {
    /// `iceCandidate`: a server candidate for the source (no `sinkId`) or a sink.
    case iceCandidate(TreeIceCandidate)

    /// Decodes the params of `method`.
    /// - Throws: ``RoomDecodingError`` naming the first missing or mistyped member.
    public init(method: TreeNotificationMethod, params: JSONValue?) throws(RoomDecodingError) {
        switch method {
        case .iceCandidate:
            self = .iceCandidate(try RoomCoding.decode(TreeIceCandidate.self, from: params,
                                                       context: "\(method.rawValue) notification"))
        }
    }

    /// The method.
    public var method: TreeNotificationMethod {
        switch self {
        case .iceCandidate: .iceCandidate
        }
    }

    /// The params as sent.
    public var params: JSONValue {
        switch self {
        case .iceCandidate(let p): RoomCoding.encode(p)
        }
    }
}
