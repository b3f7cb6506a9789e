import JSONRPC
import RoomProtocol

/// A message with a missing or mistyped member: both the schema and the Swift decoder must reject it, and the
/// decoder must name the member (so a server can answer -32602 naming the param, docs/wire-protocol.md#error-codes).
struct NegativeSample: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case request(RoomMethod)
        case result(RoomMethod)
        case notification(RoomNotificationMethod)
    }

    let kind: Kind
    /// The params (or result) as JSON text; `nil` when absent.
    let body: String?
    /// The member the decoder must name; `nil` when the whole body is at fault.
    let member: String?
    let why: String

    var label: String {
        switch kind {
        case .request(let m): "\(m) params \(why)"
        case .result(let m): "\(m) result \(why)"
        case .notification(let m): "\(m) notification \(why)"
        }
    }
    var description: String { label }

    /// The schema definition of the whole message.
    var definition: String {
        switch kind {
        case .request(let m): "\(m.rawValue)Request"
        case .result(let m): "\(m.rawValue)Response"
        case .notification(let m): RoomSchema.notificationDefinition(m)
        }
    }

    /// The whole message as wire text.
    var envelope: String {
        switch kind {
        case .request(let m): #"{"jsonrpc":"2.0","id":7,"method":"\#(m.rawValue)""# + paramsMember + "}"
        case .result: #"{"jsonrpc":"2.0","id":7,"result":\#(body ?? "null")}"#
        case .notification(let m): #"{"jsonrpc":"2.0","method":"\#(m.rawValue)""# + paramsMember + "}"
        }
    }

    private var paramsMember: String { body.map { #","params":\#($0)"# } ?? "" }

    /// Runs the Swift decoder on the body.
    func decode() throws {
        let json = try body.map { try JSONValue(parsing: $0) }
        switch kind {
        case .request(let m): _ = try RoomRequest(method: m, params: json)
        case .result(let m): _ = try RoomResult(method: m, result: json)
        case .notification(let m): _ = try RoomNotification(method: m, params: json)
        }
    }

    static func request(_ m: RoomMethod, _ body: String?, member: String?, why: String) -> NegativeSample {
        NegativeSample(kind: .request(m), body: body, member: member, why: why)
    }
    static func result(_ m: RoomMethod, _ body: String?, member: String?, why: String) -> NegativeSample {
        NegativeSample(kind: .result(m), body: body, member: member, why: why)
    }
    static func notification(_ m: RoomNotificationMethod, _ body: String?, member: String?, why: String)
        -> NegativeSample
    {
        NegativeSample(kind: .notification(m), body: body, member: member, why: why)
    }

    static let all: [NegativeSample] = [
        .request(.joinRoom, nil, member: nil, why: "absent"),
        .request(.joinRoom, #"["alice","room1"]"#, member: nil, why: "given by position"),
        .request(.joinRoom, #"{"room":"room1"}"#, member: "user", why: "without user"),
        .request(.joinRoom, #"{"user":5,"room":"room1"}"#, member: "user", why: "with a numeric user"),
        .request(.joinRoom, #"{"user":"a","room":"r","dataChannels":"yes"}"#, member: "dataChannels",
            why: "with a string dataChannels"),
        .request(.publishVideo, #"{"sdpOffer":"v=0"}"#, member: "doLoopback",
            why: "without doLoopback (the Kurento doc example puts it outside params)"),
        .request(.publishVideo, #"{"sdpOffer":1,"doLoopback":false}"#, member: "sdpOffer",
            why: "with a numeric sdpOffer"),
        .request(.publishVideo, #"{"sdpOffer":"v=0","doLoopback":"false"}"#, member: "doLoopback",
            why: "with a string doLoopback"),
        .request(.receiveVideoFrom, #"{"sdpOffer":"v=0"}"#, member: "sender", why: "without sender"),
        .request(.receiveVideoFrom, #"{"sender":["alice_webcam"],"sdpOffer":"v=0"}"#, member: "sender",
            why: "with an array sender"),
        .request(.unsubscribeFromVideo, "{}", member: "sender", why: "without sender"),
        .request(.onIceCandidate, #"{"endpointName":"alice","candidate":"c","sdpMid":"audio"}"#,
            member: "sdpMLineIndex", why: "without sdpMLineIndex"),
        .request(.onIceCandidate, #"{"endpointName":"alice","candidate":"c","sdpMid":"audio","sdpMLineIndex":"0"}"#,
            member: "sdpMLineIndex", why: "with a string sdpMLineIndex"),
        .request(.onIceCandidate, #"{"endpointName":"alice","candidate":null,"sdpMid":"audio","sdpMLineIndex":0}"#,
            member: "candidate", why: "with a null candidate"),
        .request(.sendMessage, #"{"message":"hi","userMessage":"alice"}"#, member: "roomMessage",
            why: "without roomMessage"),
        .request(.sendMessage, #"{"message":"hi","userMessage":7,"roomMessage":"room1"}"#,
            member: "userMessage", why: "with a numeric userMessage"),
        .request(.sendPrivateMessage, #"{"message":"psst"}"#, member: "to", why: "without to"),
        .request(.sendPrivateMessage, #"{"to":"bob","message":false}"#, member: "message",
            why: "with a boolean message"),
        .result(.joinRoom, #"{"sessionId":"s"}"#, member: "value", why: "without value"),
        .result(.joinRoom, #"{"value":"alice"}"#, member: "value", why: "with a string value"),
        .result(.joinRoom, #"{"value":[{"streams":[{"id":"webcam"}]}]}"#, member: "value[0].id",
            why: "with a participant without id"),
        .result(.publishVideo, #"{"sessionId":"s"}"#, member: "sdpAnswer", why: "without sdpAnswer"),
        .result(.receiveVideoFrom, #"{"sdpAnswer":5}"#, member: "sdpAnswer", why: "with a numeric sdpAnswer"),
        .notification(.participantJoined, "{}", member: "id", why: "without id"),
        .notification(.participantPublished, #"{"id":"bob"}"#, member: "streams", why: "without streams"),
        .notification(.participantPublished, #"{"id":"bob","streams":[{}]}"#, member: "streams[0].id",
            why: "with a stream without id"),
        .notification(.participantUnpublished, #"{"id":"bob"}"#, member: "name", why: "with id instead of name"),
        .notification(.participantLeft, "{}", member: "name",
            why: "without name (the Kurento doc's eviction example)"),
        .notification(.participantLeft, #"{"name":1}"#, member: "name", why: "with a numeric name"),
        .notification(.iceCandidate, #"{"endpointName":"alice","candidate":"c","sdpMid":"video","sdpMLineIndex":"1"}"#,
            member: "sdpMLineIndex", why: "with a string sdpMLineIndex"),
        .notification(.sendMessage, #"{"user":"alice","message":"hi"}"#, member: "room", why: "without room"),
        .notification(.mediaError, "{}", member: "error", why: "without error"),
        .notification(.roomClosed, #"{"room":null}"#, member: "room", why: "with a null room"),
        .notification(.privateMessage, #"{"message":"psst"}"#, member: "user", why: "without user"),
        .notification(.privateMessage, nil, member: nil, why: "without params"),
    ]
}
