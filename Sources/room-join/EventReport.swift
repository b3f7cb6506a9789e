import CLISupport
import JSONRPC
import RoomClient
import RoomProtocol
import SDP

/// The report of each room event, and of `room-join`'s own steps.
extension Report {
    init(_ event: RoomEvent) {
        switch event {
        case .participantJoined(let peer):
            self.init(event: "participantJoined", fields: ["user": .string(peer.identifier)],
                      text: "participant joined: \(peer)")
        case .participantLeft(let peer):
            self.init(event: "participantLeft", fields: ["user": .string(peer.identifier)],
                      text: "participant left: \(peer.identifier)")
        case .participantEvicted:
            self.init(event: "left", fields: ["reason": "evicted"], text: "evicted from the room")
        case .participantPublished(let peer):
            self.init(event: "participantPublished", fields: Self.fields(of: peer),
                      text: "participant published: \(peer)")
        case .participantUnpublished(let peer):
            self.init(event: "participantUnpublished", fields: ["user": .string(peer.identifier)],
                      text: "participant unpublished: \(peer.identifier)")
        case .iceCandidate(let candidate, let endpoint):
            self.init(candidate, endpoint)
        case .message(let text, let user):
            self.init(event: "message", fields: ["user": .string(user), "text": .string(text)], text: "\(user): \(text)")
        case .privateMessage(let text, let user):
            self.init(event: "privateMessage", fields: ["user": .string(user), "text": .string(text)],
                      text: "\(user) (private): \(text)")
        case .mediaError(let description, let endpoint?):
            // docs/wire-protocol.md#media-errors: RoomClient's offer provider makes the endpoint again.
            let (name, field): (String, (String, JSONValue)) = switch endpoint {
            case .publisher: ("the published stream", ("publisher", true))
            case .subscriber(let user): ("the subscription to \(user)", ("subscription", .string(user)))
            }
            self.init(event: "error", fields: ["message": .string(description), "kind": "media", field.0: field.1],
                      text: "media error on \(name): \(description); making it again")
        case .mediaError(let description, nil):
            self.init(event: "error", fields: ["message": .string(description), "kind": "media"],
                      text: "media error: \(description)")
        case .roomClosed(let room):
            self.init(event: "left", fields: ["reason": "roomClosed", "room": .string(room)],
                      text: "room \(room) closed")
        case .customNotification(let method, let params):
            self.init(event: "notification", fields: ["method": .string(method), "params": params ?? .null],
                      text: "notification \(method): \(params?.jsonText ?? "-")")
        case .invalidNotification(let error):
            self.init(event: "error", fields: ["message": .string("\(error)"), "kind": "invalidNotification"],
                      text: "invalid notification: \(error)")
        case .connectionStateChanged(let state):
            self.init(state)
        case .renegotiationNeeded(let endpoints):
            let users = endpoints.compactMap { if case .subscriber(let user) = $0 { user } else { nil } }
            self.init(event: "renegotiationNeeded",
                      fields: ["publisher": .bool(endpoints.contains(.publisher)),
                               "subscriptions": .array(users.map(JSONValue.string))],
                      text: "media to renegotiate after the rejoin: "
                          + (endpoints.contains(.publisher) ? "the published stream" : "no published stream")
                          + (users.isEmpty ? "" : ", subscriptions to \(users.joined(separator: ", "))"))
        case .recoveryFailed(let description):
            self.init(event: "error", fields: ["message": .string(description), "kind": "recovery"],
                      text: "recovery failed: \(description)")
        case .mediaNegotiationFailed(let endpoint, let description):
            // (room-join negotiates only what it asks for: RoomClient's subscribeToEveryone is not used.)
            self.init(event: "error", fields: ["message": .string(description), "kind": "media"],
                      text: "cannot negotiate \(endpoint): \(description)")
        }
    }

    /// `joined`, with the participants already in the room.
    static func joined(room: String, user: String, peers: [Peer]) -> Report {
        Report(event: "joined",
               fields: ["room": .string(room), "user": .string(user), "participants": .array(peers.map { .object(fields(of: $0)) })],
               text: "joined \(room) as \(user); participants: "
                   + (peers.isEmpty ? "none" : peers.map(\.description).joined(separator: ", ")))
    }

    /// `participants`, the answer to `/who` in interactive mode: the other participants and their streams.
    static func participants(_ peers: [Peer]) -> Report {
        Report(event: "participants", fields: ["participants": .array(peers.map { .object(fields(of: $0)) })],
               text: "participants: " + (peers.isEmpty ? "none" : peers.map(\.description).joined(separator: ", ")))
    }

    /// `published`, once the answer is applied; there is no real media.
    static let published = Report(event: "published", fields: ["realMedia": false],
                                  text: "published (no real media: the offer is PeerManager's and nothing is sent)")

    /// `subscribed`, once the answer for `user`'s stream is applied.
    static func subscribed(to user: String) -> Report {
        Report(event: "subscribed", fields: ["user": .string(user)], text: "subscribed to \(user)")
    }

    /// `restored`, once an endpoint the server lost (a rejoin, a `mediaError`) is negotiated again: `user` names the
    /// publisher of a subscription; without it, it is the local published stream.
    static func restored(_ endpoint: RoomEndpoint) -> Report {
        switch endpoint {
        case .publisher:
            Report(event: "restored", fields: [:], text: "restored: the published stream")
        case .subscriber(let user):
            Report(event: "restored", fields: ["user": .string(user)], text: "restored: the subscription to \(user)")
        }
    }

    /// `left`, after a clean leave.
    static func left(room: String) -> Report {
        Report(event: "left", fields: ["reason": "leave", "room": .string(room)], text: "left \(room)")
    }

    private init(_ candidate: IceCandidate, _ endpoint: RoomEndpoint) {
        var fields: [String: JSONValue] = ["candidate": .string(candidate.candidate),
                                           "sdpMid": candidate.sdpMid.map(JSONValue.string) ?? .null,
                                           "sdpMLineIndex": candidate.sdpMLineIndex.map(JSONValue.int) ?? .null]
        let target: String
        switch endpoint {
        case .publisher:
            fields["endpoint"] = "publisher"
            target = "the published stream"
        case .subscriber(let user):
            fields["endpoint"] = "subscriber"
            fields["user"] = .string(user)
            target = "the subscription to \(user)"
        }
        self.init(event: "iceCandidate", fields: fields,
                  text: "ICE candidate for \(target) (mid \(candidate.sdpMid ?? "-"), "
                      + "index \(candidate.sdpMLineIndex.map(String.init) ?? "-")): \(candidate.candidate)")
    }

    private init(_ state: ConnectionState) {
        var fields: [String: JSONValue] = [:]
        switch state {
        case .connecting: fields["state"] = "connecting"
        case .connected: fields["state"] = "connected"
        case .reconnecting(let attempt):
            fields["state"] = "reconnecting"
            fields["attempt"] = .int(attempt)
        case .resumed: fields["state"] = "resumed"
        case .rejoined: fields["state"] = "rejoined"
        case .disconnected(let end):
            fields["state"] = "disconnected"
            if let end { fields["code"] = .int(Int(end.code)); fields["reason"] = .string(end.reason) }
        }
        self.init(event: "connectionState", fields: fields, text: "connection \(state)")
    }

    private static func fields(of peer: Peer) -> [String: JSONValue] {
        ["user": .string(peer.identifier), "streams": .array(peer.streams.map(JSONValue.string))]
    }
}
