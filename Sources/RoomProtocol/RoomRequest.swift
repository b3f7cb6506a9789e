public import JSONRPC

/// One Room request with its typed params: what a server dispatches on and what a client sends.
///
/// ``init(method:params:)`` is the decode entry point: it rejects absent or mistyped required params with a
/// ``RoomDecodingError`` naming the param, which a server turns into -32602 (docs/wire-protocol.md#error-codes) through
/// ``RoomDecodingError/invalidParams``. Unknown members are ignored, because Kurento clients add their own
/// (the Java client injects `sessionId`, the JS client merges `setRpcParams()` into every request).
public enum RoomRequest: Sendable, Hashable {
    /// `joinRoom`.
    case joinRoom(JoinRoomParams)
    /// `publishVideo`.
    case publishVideo(PublishVideoParams)
    /// `unpublishVideo` (no params).
    case unpublishVideo
    /// `receiveVideoFrom`.
    case receiveVideoFrom(ReceiveVideoFromParams)
    /// `unsubscribeFromVideo`.
    case unsubscribeFromVideo(UnsubscribeFromVideoParams)
    /// `onIceCandidate`.
    case onIceCandidate(RoomIceCandidate)
    /// `leaveRoom` (no params).
    case leaveRoom
    /// `sendMessage`.
    case sendMessage(SendMessageParams)
    /// `customRequest`: free-form params, `{}` when absent.
    case customRequest(JSONValue)
    /// Extension `sendPrivateMessage`.
    case sendPrivateMessage(SendPrivateMessageParams)

    /// Decodes the params of `method`.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - params: The request's params; `nil` when absent. Ignored by `unpublishVideo` and `leaveRoom`.
    /// - Throws: ``RoomDecodingError`` naming the first missing or mistyped param.
    public init(method: RoomMethod, params: JSONValue?) throws(RoomDecodingError) {
        func decode<T: Decodable>(_ type: T.Type) throws(RoomDecodingError) -> T {
            try RoomCoding.decode(type, from: params, context: "\(method.rawValue) params")
        }
        switch method {
        case .joinRoom: self = .joinRoom(try decode(JoinRoomParams.self))
        case .publishVideo: self = .publishVideo(try decode(PublishVideoParams.self))
        case .unpublishVideo: self = .unpublishVideo
        case .receiveVideoFrom: self = .receiveVideoFrom(try decode(ReceiveVideoFromParams.self))
        case .unsubscribeFromVideo: self = .unsubscribeFromVideo(try decode(UnsubscribeFromVideoParams.self))
        case .onIceCandidate: self = .onIceCandidate(try decode(RoomIceCandidate.self))
        case .leaveRoom: self = .leaveRoom
        case .sendMessage: self = .sendMessage(try decode(SendMessageParams.self))
        case .customRequest: self = .customRequest(params ?? [:])
        case .sendPrivateMessage: self = .sendPrivateMessage(try decode(SendPrivateMessageParams.self))
        }
    }

    /// The method.
    public var method: RoomMethod {
        switch self {
        case .joinRoom: .joinRoom
        case .publishVideo: .publishVideo
        case .unpublishVideo: .unpublishVideo
        case .receiveVideoFrom: .receiveVideoFrom
        case .unsubscribeFromVideo: .unsubscribeFromVideo
        case .onIceCandidate: .onIceCandidate
        case .leaveRoom: .leaveRoom
        case .sendMessage: .sendMessage
        case .customRequest: .customRequest
        case .sendPrivateMessage: .sendPrivateMessage
        }
    }

    /// The params as sent; `nil` for `unpublishVideo` and `leaveRoom`, which Kurento clients send without params.
    public var params: JSONValue? {
        switch self {
        case .joinRoom(let p): RoomCoding.encode(p)
        case .publishVideo(let p): RoomCoding.encode(p)
        case .unpublishVideo, .leaveRoom: nil
        case .receiveVideoFrom(let p): RoomCoding.encode(p)
        case .unsubscribeFromVideo(let p): RoomCoding.encode(p)
        case .onIceCandidate(let p): RoomCoding.encode(p)
        case .sendMessage(let p): RoomCoding.encode(p)
        case .customRequest(let p): p
        case .sendPrivateMessage(let p): RoomCoding.encode(p)
        }
    }
}
