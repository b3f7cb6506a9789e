public import JSONRPC

/// The result of a Room request, by method (docs/wire-protocol.md#room-requests): `value` on join, `sdpAnswer` on
/// publish and receive, `{}` elsewhere, and whatever the application returns for `customRequest`.
public enum RoomResult: Sendable, Hashable {
    /// `joinRoom`: the participants already in the room.
    case joined([RoomParticipant])
    /// `publishVideo` and `receiveVideoFrom`: the server's SDP answer.
    case sdpAnswer(String)
    /// Every other Room method: an empty object (plus the injected `sessionId`).
    case empty
    /// `customRequest`: application-defined.
    case custom(JSONValue)

    /// Decodes the result of a `method` request.
    /// - Parameters:
    ///   - method: The method of the request this result answers.
    ///   - result: The response's `result`, with or without the injected `sessionId` (decoding ignores it).
    /// - Throws: ``RoomDecodingError`` naming the missing or mistyped member.
    public init(method: RoomMethod, result: JSONValue?) throws(RoomDecodingError) {
        let context = "\(method.rawValue) result"
        switch method {
        case .joinRoom:
            self = .joined(try RoomCoding.decode(JoinRoomResult.self, from: result, context: context).value)
        case .publishVideo, .receiveVideoFrom:
            self = .sdpAnswer(try RoomCoding.decode(SDPAnswerResult.self, from: result, context: context).sdpAnswer)
        case .customRequest:
            // docs/wire-protocol.md#kurento-conventions: a non-object result travels wrapped as {"value", "sessionId"}.
            self = .custom(result?.unwrapped ?? .null)
        case .unpublishVideo, .unsubscribeFromVideo, .onIceCandidate, .leaveRoom, .sendMessage, .sendPrivateMessage:
            // Nothing to read: stock servers send {"sessionId"} (and the Kurento doc's sdpAnswer for
            // unsubscribeFromVideo is wrong, docs/wire-protocol.md#room-requests), so any members are ignored.
            self = .empty
        }
    }

    /// The result a server handler returns; ``/JSONRPC/KurentoConventions`` then injects the `sessionId`.
    /// ``empty`` is `{}` (a Kurento server answers it as `{"sessionId"}`).
    public var json: JSONValue {
        switch self {
        case .joined(let participants): RoomCoding.encode(JoinRoomResult(participants))
        case .sdpAnswer(let answer): RoomCoding.encode(SDPAnswerResult(sdpAnswer: answer))
        case .empty: [:]
        case .custom(let value): value
        }
    }
}
