public import JSONRPC

/// One Tree notification with its typed params (docs/wire-protocol.md#tree: `iceCandidate`, and our `mediaError`).
public enum TreeNotification: Sendable, Hashable {
    /// `iceCandidate`: a server candidate for the source (no `sinkId`) or a sink.
    case iceCandidate(TreeIceCandidate)
    /// `mediaError`: the source (no `sinkId`) or a sink failed at the media server and was dropped.
    case mediaError(TreeMediaError)

    /// Decodes the params of `method`.
    /// - Throws: ``RoomDecodingError`` naming the first missing or mistyped member.
    public init(method: TreeNotificationMethod, params: JSONValue?) throws(RoomDecodingError) {
        switch method {
        case .iceCandidate:
            self = .iceCandidate(try RoomCoding.decode(TreeIceCandidate.self, from: params,
                                                       context: "\(method.rawValue) notification"))
        case .mediaError:
            self = .mediaError(try RoomCoding.decode(TreeMediaError.self, from: params,
                                                     context: "\(method.rawValue) notification"))
        }
    }

    /// The method.
    public var method: TreeNotificationMethod {
        switch self {
        case .iceCandidate: .iceCandidate
        case .mediaError: .mediaError
        }
    }

    /// The params as sent.
    public var params: JSONValue {
        switch self {
        case .iceCandidate(let p): RoomCoding.encode(p)
        case .mediaError(let p): RoomCoding.encode(p)
        }
    }
}
