import JSONRPC
import RoomProtocol

/// A message with a missing or mistyped member: both the schema and the Swift decoder must reject it, and the
/// decoder must name the member (so a server can answer -32602 naming the param, DESIGN §6).
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
        case .request(let m): #"{"jsonrpc":"2.0","id":7,"method":"\#(m.rawValue)""# + (body.map { #","params":\#($0)"# } ?? "") + "}"
        case .result: #"{"jsonrpc":"2.0","id":7,"result":\#(body ?? "null")}"#
        case .notification(let m): #"{"jsonrpc":"2.0","method":"\#(m.rawValue)""# + (body.map { #","params":\#($0)"# } ?? "") + "}"
        }
    }

    /// Runs the Swift decoder on the body.
    func decode() throws {
        let json = try body.map { try JSONValue(parsing: $0) }
        switch kind {
        case .request(let m): _ = try RoomRequest(method: m, params: json)
        case .result(let m): _ = try RoomResult(method: m, result: json)
        case .notification(let m): _ = try RoomNotification(method: m, params: json)
        }
    }

    static let all: [NegativeSample] = [
        .init(kind: .request(.joinRoom), body: nil, member: nil, why: "absent"),
        .init(kind: .request(.joinRoom), body: #"{"room":"room1"}"#, member: "user", why: "without user"),
        .init(kind: .request(.joinRoom), body: #"{"user":5,"room":"room1"}"#, member: "user", why: "with a numeric user"),
        .init(kind: .request(.joinRoom), body: #"{"user":"a","room":"r","dataChannels":"yes"}"#, member: "dataChannels",
              why: "with a string dataChannels"),
        .init(kind: .request(.publishVideo), body: #"{"sdpOffer":"v=0"}"#, member: "doLoopback",
              why: "without doLoopback (the Kurento doc example puts it outside params)"),
        .init(kind: .request(.publishVideo), body: #"{"sdpOffer":1,"doLoopback":false}"#, member: "sdpOffer",
              why: "with a numeric sdpOffer"),
        .init(kind: .request(.publishVideo), body: #"{"sdpOffer":"v=0","doLoopback":"false"}"#, member: "doLoopback",
              why: "with a string doLoopback"),
        .init(kind: .request(.receiveVideoFrom), body: #"{"sdpOffer":"v=0"}"#, member: "sender", why: "without sender"),
        .init(kind: .request(.receiveVideoFrom), body: #"{"sender":["alice_webcam"],"sdpOffer":"v=0"}"#, member: "sender",
              why: "with an array sender"),
        .init(kind: .request(.unsubscribeFromVideo), body: "{}", member: "sender", why: "without sender"),
        .init(kind: .request(.onIceCandidate), body: #"{"endpointName":"alice","candidate":"c","sdpMid":"audio"}"#,
              member: "sdpMLineIndex", why: "without sdpMLineIndex"),
        .init(kind: .request(.onIceCandidate), body: #"{"endpointName":"alice","candidate":"c","sdpMid":"audio","sdpMLineIndex":"0"}"#,
              member: "sdpMLineIndex", why: "with a string sdpMLineIndex"),
        .init(kind: .request(.onIceCandidate), body: #"{"endpointName":"alice","candidate":null,"sdpMid":"audio","sdpMLineIndex":0}"#,
              member: "candidate", why: "with a null candidate"),
        .init(kind: .request(.sendMessage), body: #"{"message":"hi","userMessage":"alice"}"#, member: "roomMessage",
              why: "without roomMessage"),
        .init(kind: .request(.sendMessage), body: #"{"message":"hi","userMessage":7,"roomMessage":"room1"}"#,
              member: "userMessage", why: "with a numeric userMessage"),
        .init(kind: .request(.sendPrivateMessage), body: #"{"message":"psst"}"#, member: "to", why: "without to"),
        .init(kind: .request(.sendPrivateMessage), body: #"{"to":"bob","message":false}"#, member: "message",
              why: "with a boolean message"),
        .init(kind: .result(.joinRoom), body: #"{"sessionId":"s"}"#, member: "value", why: "without value"),
        .init(kind: .result(.joinRoom), body: #"{"value":"alice"}"#, member: "value", why: "with a string value"),
        .init(kind: .result(.joinRoom), body: #"{"value":[{"streams":[{"id":"webcam"}]}]}"#, member: "value[0].id",
              why: "with a participant without id"),
        .init(kind: .result(.publishVideo), body: #"{"sessionId":"s"}"#, member: "sdpAnswer", why: "without sdpAnswer"),
        .init(kind: .result(.receiveVideoFrom), body: #"{"sdpAnswer":5}"#, member: "sdpAnswer", why: "with a numeric sdpAnswer"),
        .init(kind: .notification(.participantJoined), body: "{}", member: "id", why: "without id"),
        .init(kind: .notification(.participantPublished), body: #"{"id":"bob"}"#, member: "streams", why: "without streams"),
        .init(kind: .notification(.participantPublished), body: #"{"id":"bob","streams":[{}]}"#, member: "streams[0].id",
              why: "with a stream without id"),
        .init(kind: .notification(.participantUnpublished), body: #"{"id":"bob"}"#, member: "name", why: "with id instead of name"),
        .init(kind: .notification(.participantLeft), body: "{}", member: "name",
              why: "without name (the Kurento doc's eviction example)"),
        .init(kind: .notification(.participantLeft), body: #"{"name":1}"#, member: "name", why: "with a numeric name"),
        .init(kind: .notification(.iceCandidate), body: #"{"endpointName":"alice","candidate":"c","sdpMid":"video","sdpMLineIndex":"1"}"#,
              member: "sdpMLineIndex", why: "with a string sdpMLineIndex"),
        .init(kind: .notification(.sendMessage), body: #"{"user":"alice","message":"hi"}"#, member: "room", why: "without room"),
        .init(kind: .notification(.mediaError), body: "{}", member: "error", why: "without error"),
        .init(kind: .notification(.roomClosed), body: #"{"room":null}"#, member: "room", why: "with a null room"),
        .init(kind: .notification(.privateMessage), body: #"{"message":"psst"}"#, member: "user", why: "without user"),
        .init(kind: .notification(.privateMessage), body: nil, member: nil, why: "without params"),
    ]
}
