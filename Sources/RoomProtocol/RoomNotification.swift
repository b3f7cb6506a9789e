public import JSONRPC

/// One Room notification with its typed params: what a server sends and what a client dispatches on.
///
/// ``init(method:params:)`` is the decode entry point; it names the missing or mistyped member in its
/// ``RoomDecodingError``. Unknown members are ignored.
public enum RoomNotification: Sendable, Hashable {
    /// `participantJoined`.
    case participantJoined(ParticipantJoinedNotification)
    /// `participantPublished`.
    case participantPublished(ParticipantPublishedNotification)
    /// `participantUnpublished`.
    case participantUnpublished(ParticipantUnpublishedNotification)
    /// `participantLeft`.
    case participantLeft(ParticipantLeftNotification)
    /// `participantEvicted`: the recipient was evicted; params `{}`.
    case participantEvicted
    /// `iceCandidate`.
    case iceCandidate(RoomIceCandidate)
    /// `sendMessage` (the broadcast chat message).
    case sendMessage(RoomMessageNotification)
    /// `mediaError`.
    case mediaError(MediaErrorNotification)
    /// `roomClosed`.
    case roomClosed(RoomClosedNotification)
    /// Extension `privateMessage`.
    case privateMessage(PrivateMessageNotification)

    /// Decodes the params of `method`.
    /// - Parameters:
    ///   - method: The notification's method.
    ///   - params: Its params; `nil` when absent. Ignored by `participantEvicted`.
    /// - Throws: ``RoomDecodingError`` naming the first missing or mistyped member.
    public init(method: RoomNotificationMethod, params: JSONValue?) throws(RoomDecodingError) {
        func decode<T: Decodable>(_ type: T.Type) throws(RoomDecodingError) -> T {
            try RoomCoding.decode(type, from: params, context: "\(method.rawValue) notification")
        }
        switch method {
        case .participantJoined: self = .participantJoined(try decode(ParticipantJoinedNotification.self))
        case .participantPublished: self = .participantPublished(try decode(ParticipantPublishedNotification.self))
        case .participantUnpublished:
            self = .participantUnpublished(try decode(ParticipantUnpublishedNotification.self))
        case .participantLeft: self = .participantLeft(try decode(ParticipantLeftNotification.self))
        case .participantEvicted: self = .participantEvicted
        case .iceCandidate: self = .iceCandidate(try decode(RoomIceCandidate.self))
        case .sendMessage: self = .sendMessage(try decode(RoomMessageNotification.self))
        case .mediaError: self = .mediaError(try decode(MediaErrorNotification.self))
        case .roomClosed: self = .roomClosed(try decode(RoomClosedNotification.self))
        case .privateMessage: self = .privateMessage(try decode(PrivateMessageNotification.self))
        }
    }

    /// The method.
    public var method: RoomNotificationMethod {
        switch self {
        case .participantJoined: .participantJoined
        case .participantPublished: .participantPublished
        case .participantUnpublished: .participantUnpublished
        case .participantLeft: .participantLeft
        case .participantEvicted: .participantEvicted
        case .iceCandidate: .iceCandidate
        case .sendMessage: .sendMessage
        case .mediaError: .mediaError
        case .roomClosed: .roomClosed
        case .privateMessage: .privateMessage
        }
    }

    /// The params as sent (`{}` for `participantEvicted`, docs/wire-protocol.md#room-notifications).
    public var params: JSONValue {
        switch self {
        case .participantJoined(let p): RoomCoding.encode(p)
        case .participantPublished(let p): RoomCoding.encode(p)
        case .participantUnpublished(let p): RoomCoding.encode(p)
        case .participantLeft(let p): RoomCoding.encode(p)
        case .participantEvicted: [:]
        case .iceCandidate(let p): RoomCoding.encode(p)
        case .sendMessage(let p): RoomCoding.encode(p)
        case .mediaError(let p): RoomCoding.encode(p)
        case .roomClosed(let p): RoomCoding.encode(p)
        case .privateMessage(let p): RoomCoding.encode(p)
        }
    }
}
