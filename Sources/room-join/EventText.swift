import JSONRPC
import RoomClient
import RoomProtocol
import SDP

/// One readable line per room event.
enum EventText {
    static func line(for event: RoomEvent) -> String {
        switch event {
        case .participantJoined(let peer): "participant joined: \(peer)"
        case .participantLeft(let peer): "participant left: \(peer.identifier)"
        case .participantEvicted: "evicted from the room"
        case .participantPublished(let peer): "participant published: \(peer)"
        case .participantUnpublished(let peer): "participant unpublished: \(peer.identifier)"
        case .iceCandidate(let candidate, let endpoint):
            "ICE candidate for \(endpointText(endpoint)) (mid \(candidate.sdpMid ?? "-"), "
                + "index \(candidate.sdpMLineIndex.map(String.init) ?? "-")): \(candidate.candidate)"
        case .message(let text, let user): "\(user): \(text)"
        case .privateMessage(let text, let user): "\(user) (private): \(text)"
        case .mediaError(let description): "media error: \(description)"
        case .roomClosed(let room): "room \(room) closed"
        case .customNotification(let method, let params): "notification \(method): \(params?.jsonText ?? "-")"
        case .invalidNotification(let error): "invalid notification: \(error)"
        case .connectionStateChanged(let state): "connection \(state)"
        }
    }

    private static func endpointText(_ endpoint: RoomEndpoint) -> String {
        switch endpoint {
        case .publisher: "the published stream"
        case .subscriber(let user): "the subscription to \(user)"
        }
    }
}
