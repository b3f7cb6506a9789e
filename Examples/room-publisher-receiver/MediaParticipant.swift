import Foundation
import JSONRPC
import PeerManager
import RoomClient
import RoomProtocol
import SDP

/// One side of the example: a ``RoomClient`` and the ``PeerManager`` that does its SDP, with the room events read
/// in order on the caller's task.
struct MediaParticipant {
    let name: String
    let client: RoomClient
    let media = PeerManager()
    /// The room events, subscribed before joining so nothing is missed.
    private var events: Broadcast<RoomEvent>.Subscription.AsyncIterator
    /// Server candidates applied to the PeerManager connection so far.
    private(set) var remoteCandidates = 0

    init(_ name: String, room: String, url: String) {
        self.name = name
        client = RoomClient(room: Room(username: name, roomName: room, url: url))
        events = client.events.makeAsyncIterator()
    }

    func join() async throws {
        try await client.connect()
        let peers = try await client.join()
        say("joined; participants: \(peers.isEmpty ? "none" : peers.map(\.description).joined(separator: ", "))")
    }

    /// The whole SDP and trickle ICE flow of one endpoint: a PeerManager offer, the room call that answers it
    /// (`publishVideo` or `receiveVideoFrom`), the answer applied, one local host candidate sent, and the server's
    /// candidates applied as they arrive.
    mutating func negotiate(_ endpoint: RoomEndpoint, direction: MediaDirection, candidatePort: Int,
                            _ call: (String) async throws -> String) async throws {
        let id = endpoint.endpointName(ownName: name)
        let offer = try await media.generateOffer(for: id, media: .audioVideo(direction: direction))
        say("offer made by PeerManager (\(direction.rawValue), no real media); signaling state \(try await state(id))")
        let answer = try await call(offer)
        try await media.processAnswer(answer, for: id)
        say("answer applied; signaling state \(try await state(id))")
        // There is no real media, so nothing gathers candidates: this example makes a host candidate up.
        let local = try await media.addHostCandidate(address: "127.0.0.1", port: candidatePort, for: id)
        try await client.sendICECandidate(local, for: endpoint)
        say("local candidate sent: 127.0.0.1:\(candidatePort) host (made up by this example: there is no real media)")
        // A chat message as a barrier: the server sends in order, so once our own message is back, every
        // candidate it sent for this endpoint has been read (it sends them even before the answer).
        try await client.sendMessage("\(name) negotiated")
        try await read(until: "\(name) negotiated", from: name)
        say("\(remoteCandidates) remote candidate(s) applied; signaling state \(try await state(id))")
    }

    /// Reads room events up to the chat message `marker` from `sender`, adding each server candidate to the
    /// PeerManager connection of its endpoint.
    mutating func read(until marker: String, from sender: String) async throws {
        while let event = try await events.next() {
            switch event {
            case .message(marker, from: sender):
                return
            case .iceCandidate(let candidate, let endpoint):
                try await media.addICECandidate(candidate, for: endpoint.endpointName(ownName: name))
                remoteCandidates += 1
            case .participantPublished(let peer):
                say("\(peer.identifier) published \(peer.streams.joined(separator: ", "))")
            default:
                break
            }
        }
        throw ExampleError(description: "\(name): the room events ended before \(marker)")
    }

    func leave() async throws {
        try await client.leave()
        await client.disconnect()
        say("left")
    }

    private func state(_ id: String) async throws -> String {
        await media.connection(id)?.signalingState.rawValue ?? "closed"
    }

    func say(_ line: String) { show("\(name): \(line)") }
}
