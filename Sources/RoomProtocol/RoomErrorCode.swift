/// Kurento Room error codes (`RoomException.Code`, docs/wire-protocol.md#room-errors), plus -1 from Kurento's JSON-RPC
/// layer and 401 for a refused join (docs/wire-protocol.md#room-errors). NBMRoomClient's copy lacks 105; this one has
/// it.
public enum RoomErrorCode: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// -1: an uncaught server exception, e.g. a missing param, a `sender` without `_`, or the default
    /// `customRequest` ("RuntimeException:Unsupported method").
    case uncaughtException = -1
    /// 101 USER_GENERIC; also our answer to a second `joinRoom` on one session (docs/wire-protocol.md#room-errors).
    case userGeneric = 101
    /// 102 USER_NOT_FOUND: unknown sender, wrong `userMessage`, unknown private-message target.
    case userNotFound = 102
    /// 103 USER_CLOSED.
    case userClosed = 103
    /// 104 EXISTING_USER_IN_ROOM: "User 'X' already exists in room 'R'".
    case existingUserInRoom = 104
    /// 105 USER_NOT_STREAMING: receiving from a non-publisher, or from yourself.
    case userNotStreaming = 105
    /// 201 ROOM_GENERIC; also "room full" (docs/wire-protocol.md#room-errors).
    case roomGeneric = 201
    /// 202 ROOM_NOT_FOUND: also a `roomMessage` that is not the caller's room.
    case roomNotFound = 202
    /// 203 ROOM_CLOSED.
    case roomClosed = 203
    /// 204 ROOM_CANNOT_BE_CREATED; also "too many rooms" (docs/wire-protocol.md#room-errors).
    case roomCannotBeCreated = 204
    /// 301 MEDIA_GENERIC.
    case mediaGeneric = 301
    /// 302 MEDIA_SDP: no SDP answer could be produced.
    case mediaSDP = 302
    /// 303 MEDIA_ENDPOINT: endpoint creation timed out or failed.
    case mediaEndpoint = 303
    /// 304 MEDIA_WEBRTC_ENDPOINT.
    case mediaWebRTCEndpoint = 304
    /// 305 MEDIA_RTP_ENDPOINT.
    case mediaRTPEndpoint = 305
    /// 306 MEDIA_NOT_A_WEB_ENDPOINT.
    case mediaNotAWebEndpoint = 306
    /// 307 MEDIA_MUTE.
    case mediaMute = 307
    /// 401: the authorizer refused the join (docs/architecture.md#identity; not a Kurento code).
    case unauthorized = 401
    /// 801 TRANSPORT_REQUEST.
    case transportRequest = 801
    /// 802 TRANSPORT_RESPONSE.
    case transportResponse = 802
    /// 803 TRANSPORT.
    case transport = 803
    /// 999 GENERIC: "Empty user name is not allowed", and every invalid user name (docs/wire-protocol.md#room-errors).
    case generic = 999

    public var description: String { "\(rawValue) (\(name))" }

    /// Kurento's constant name, as in `RoomException.Code` (`unauthorized` and -1 are named here).
    public var name: String {
        switch self {
        case .uncaughtException: "UNCAUGHT_EXCEPTION"
        case .userGeneric: "USER_GENERIC"
        case .userNotFound: "USER_NOT_FOUND"
        case .userClosed: "USER_CLOSED"
        case .existingUserInRoom: "EXISTING_USER_IN_ROOM"
        case .userNotStreaming: "USER_NOT_STREAMING"
        case .roomGeneric: "ROOM_GENERIC"
        case .roomNotFound: "ROOM_NOT_FOUND"
        case .roomClosed: "ROOM_CLOSED"
        case .roomCannotBeCreated: "ROOM_CANNOT_BE_CREATED"
        case .mediaGeneric: "MEDIA_GENERIC"
        case .mediaSDP: "MEDIA_SDP"
        case .mediaEndpoint: "MEDIA_ENDPOINT"
        case .mediaWebRTCEndpoint: "MEDIA_WEBRTC_ENDPOINT"
        case .mediaRTPEndpoint: "MEDIA_RTP_ENDPOINT"
        case .mediaNotAWebEndpoint: "MEDIA_NOT_A_WEB_ENDPOINT"
        case .mediaMute: "MEDIA_MUTE"
        case .unauthorized: "UNAUTHORIZED"
        case .transportRequest: "TRANSPORT_REQUEST"
        case .transportResponse: "TRANSPORT_RESPONSE"
        case .transport: "TRANSPORT"
        case .generic: "GENERIC"
        }
    }
}
