import JSONRPC
import RoomProtocol

/// Positive samples: at least one value of every Room request, result, notification and error code. The wire
/// text of each comes from the project's own encoders (RoomProtocol → JSONRPC envelopes → KurentoConventions).
enum RoomSamples {
    static let offer = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
    static let candidate = "candidate:1 1 UDP 2013266431 10.0.0.5 50000 typ host"

    static let requests: [RoomRequest] = [
        .joinRoom(.init(user: "alice", room: "room1", dataChannels: false)),
        .joinRoom(.init(user: "bob", room: "room1")),
        .publishVideo(.init(sdpOffer: offer, doLoopback: false)),
        .unpublishVideo,
        .receiveVideoFrom(.init(sender: StreamSender(user: "alice"), sdpOffer: offer)),
        .unsubscribeFromVideo(.init(sender: StreamSender(user: "alice"))),
        .onIceCandidate(.init(endpointName: "alice", candidate: candidate, sdpMid: "audio", sdpMLineIndex: 0)),
        .onIceCandidate(.init(endpointName: "bob", candidate: "", sdpMid: "", sdpMLineIndex: 1)),
        .leaveRoom,
        .sendMessage(.init(message: "hello", userMessage: "alice", roomMessage: "room1")),
        .customRequest(["hat": true]),
        .customRequest([:]),
        .sendPrivateMessage(.init(to: "bob", message: "psst")),
    ]

    static let results: [(method: RoomMethod, result: RoomResult)] = [
        (.joinRoom, .joined([])),
        (.joinRoom, .joined([RoomParticipant(id: "alice", streams: [.init()]), RoomParticipant(id: "carol")])),
        (.publishVideo, .sdpAnswer(offer)),
        (.receiveVideoFrom, .sdpAnswer(offer)),
        (.customRequest, .custom(["marker": 3])),
        (.customRequest, .custom(42)),
    ] + [RoomMethod.unpublishVideo, .unsubscribeFromVideo, .onIceCandidate, .leaveRoom, .sendMessage,
         .sendPrivateMessage].map { ($0, RoomResult.empty) }

    static let notifications: [RoomNotification] = [
        .participantJoined(.init(id: "bob")),
        .participantPublished(.init(id: "bob")),
        .participantUnpublished(.init(name: "bob")),
        .participantLeft(.init(name: "bob")),
        .participantEvicted,
        .iceCandidate(.init(endpointName: "alice", candidate: candidate, sdpMid: "video", sdpMLineIndex: 1)),
        .sendMessage(.init(room: "room1", user: "alice", message: "hello")),
        .mediaError(.init(error: "endpoint creation timed out")),
        .roomClosed(.init(room: "room1")),
        .privateMessage(.init(user: "alice", message: "psst")),
    ]

    static let errors: [RoomError] = RoomErrorCode.allCases.map { RoomError($0, message: "sample \($0.name)") }
        + [.existingUser("bob", room: "room1"), .alreadyInRoom("room1"), .unauthorized]

    static let sessionId = "sid-sample"

    /// One encoded sample and the schema definition it must match.
    struct Encoded: Sendable {
        let label: String
        let definition: String
        let text: String
    }

    /// Every sample as wire text, produced by the project's encoders.
    static var encoded: [Encoded] {
        var out: [Encoded] = []
        for (index, request) in requests.enumerated() {
            let text = RPCRequest(id: .number(index), method: request.method.rawValue, params: request.params).jsonText
            out.append(Encoded(label: "request #\(index) \(request.method)",
                               definition: "\(request.method.rawValue)Request", text: text))
        }
        for (index, sample) in results.enumerated() {
            let wire = KurentoConventions.result(sample.result.json, sessionId: sessionId)
            let text = RPCResponse.result(wire, id: .number(index)).jsonText
            out.append(Encoded(label: "result #\(index) \(sample.method)",
                               definition: "\(sample.method.rawValue)Response", text: text))
        }
        for (index, notification) in notifications.enumerated() {
            let message = RPCNotification(method: notification.method.rawValue, params: notification.params)
            let text = RPCMessage.notification(message).jsonText
            out.append(Encoded(label: "notification #\(index) \(notification.method)",
                               definition: RoomSchema.notificationDefinition(notification.method), text: text))
        }
        for (index, error) in errors.enumerated() {
            let wire = KurentoConventions.error(error.errorObject, sessionId: sessionId)
            out.append(Encoded(label: "error #\(index) \(error.code)", definition: "roomErrorResponse",
                               text: RPCResponse.error(wire, id: .number(index)).jsonText))
        }
        return out
    }
}
