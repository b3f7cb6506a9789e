import Foundation
import JSONRPC
import PeerManager
import RoomClient
import RoomProtocol
import SDP

/// One side of the example: a ``RoomClient`` and the ``PeerManager`` it negotiates through, with the room events
/// read in order on the caller's task.
struct MediaParticipant {
    let name: String
    let client: RoomClient
    let media = PeerManager()
    /// The room events, subscribed before joining so nothing is missed.
    private var events: Broadcast<RoomEvent>.Subscription.AsyncIterator
    /// Server candidates received so far (RoomClient adds each to the PeerManager connection of its endpoint).
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

    /// The whole SDP and trickle ICE flow of one endpoint, most of it RoomClient's: `negotiate` publishes
    /// (``RoomClient/publish(using:loopback:)``) or subscribes (``RoomClient/subscribe(to:using:)``): a PeerManager
    /// offer, the room call, the answer applied. One local host candidate is made up and RoomClient sends it; the
    /// server's candidates are added to the PeerManager as they arrive.
    mutating func negotiate(_ endpoint: RoomEndpoint, candidatePort: Int,
                            _ negotiate: (RoomClient, PeerManager) async throws -> Void) async throws {
        let id = client.mediaConnectionID(for: endpoint)
        try await negotiate(client, media)
        say("answer applied; signaling state \(await state(id))")
        // There is no real media, so nothing gathers candidates: this example makes a host candidate up, and
        // RoomClient sends what the PeerManager reports.
        try await media.addHostCandidate(address: "127.0.0.1", port: candidatePort, for: id)
        say("local candidate 127.0.0.1:\(candidatePort) host made up (there is no real media); RoomClient sends it")
        // A chat message as a barrier: the server sends in order, so once our own message is back, every
        // candidate it sent for this endpoint has been read (it sends them even before the answer).
        try await client.sendMessage("\(name) negotiated")
        try await read(until: "\(name) negotiated", from: name)
        say("\(remoteCandidates) remote candidate(s) received; signaling state \(await state(id))")
    }

    /// Reads room events up to the chat message `marker` from `sender`, counting the server's candidates.
    mutating func read(until marker: String, from sender: String) async throws {
        while let event = try await events.next() {
            switch event {
            case .message(marker, from: sender):
                return
            case .iceCandidate:
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

    private func state(_ id: String) async -> String {
        await media.connection(id)?.signalingState.rawValue ?? "closed"
    }

    func say(_ line: String) { show("\(name): \(line)") }
}
