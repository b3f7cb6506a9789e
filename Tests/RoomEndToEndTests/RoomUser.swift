import JSONRPC
import PeerManager
import RoomClient
import RoomProtocol
import RoomTestSupport
import SDP
import SignalingSupport
import Testing
import TestSupport

/// What a user received between two marker barriers (docs/testing.md#deadlines).
struct Received: Equatable {
    /// The room events, in wire order, apart from `iceCandidate`.
    var events: [RoomEvent] = []
    /// The endpoints of the `iceCandidate` events, in wire order; each candidate was added to the user's
    /// PeerManager.
    var candidates: [RoomEndpoint] = []
}

/// One participant of the end-to-end room: a ``RoomClient`` over a real socket, a ``PeerManager`` whose
/// connections are named like the room's endpoints (its own name for the publisher, the publisher's name for a
/// subscription), and every room event it received, read up to marker messages.
final class RoomUser: Sendable {
    private let user: RoomTestClient
    var name: String { user.name }
    var client: RoomClient { user.client }
    let media = PeerManager()
    /// How many of the events were read, connection states included.
    private let read = LockedValue(0)

    init(_ name: String, room: String, url: String, configuration: RoomClient.Configuration = .init()) {
        user = RoomTestClient(name, room: room, url: url, configuration: configuration)
    }

    /// Connects and joins; returns the participants already there.
    func join() async throws -> [Peer] { try await user.join() }

    /// Publishes a PeerManager offer, applies the answer and trickles a client candidate.
    func publish(port: Int) async throws {
        let offer = try await media.generateOffer(for: name, media: .audioVideo(direction: .sendonly))
        let answer = try await client.publishVideo(sdpOffer: offer)
        try await media.processAnswer(answer, for: name)
        try await trickle(.publisher, port: port)
    }

    /// Subscribes to `publisher` with a PeerManager offer, applies the answer and trickles a client candidate.
    func subscribe(to publisher: String, port: Int) async throws {
        let peer = try #require(client.peer(withIdentifier: publisher))
        let offer = try await media.generateOffer(for: publisher, media: .audioVideo(direction: .recvonly))
        let answer = try await client.receiveVideo(from: peer, sdpOffer: offer)
        try await media.processAnswer(answer, for: publisher)
        try await trickle(.subscriber(to: publisher), port: port)
    }

    /// Gathers a host candidate on `port` for the first (bundle-tagged) m-line of the endpoint's offer through
    /// PeerManager, and sends the candidate PeerManager reports to the room.
    private func trickle(_ endpoint: RoomEndpoint, port: Int) async throws {
        let id = endpoint.endpointName(ownName: name)
        let reported = await media.events()
        let offer = try #require(await media.connection(id)?.localDescription?.description)
        let host = CandidateAttribute(
            foundation: "1", priority: 2_122_260_223, address: "10.0.0.7", port: port, type: .host,
            extensions: [.init(name: "ufrag", value: try #require(offer.effectiveIceUfrag(ofMediaAt: 0)))])
        try await media.addLocalCandidate(IceCandidate(host, sdpMid: offer.media[0].mid, sdpMLineIndex: 0), for: id)
        for try await event in reported {
            guard case .localCandidate(id, let candidate) = event else { continue }
            try await client.sendICECandidate(candidate, for: endpoint)
            return
        }
    }

    /// Waits for the chat message `marker` from `sender`, and returns what arrived since the last marker before it.
    /// Server candidates among it are added to the PeerManager connection of their endpoint.
    func received(before marker: String, from sender: String) async throws -> Received {
        let expected = RoomEvent.message(marker, from: sender)
        let from = read.withLock { $0 }
        try await user.events.wait(until: "\(name) receives \(marker)") { $0[from...].contains(expected) }
        let end = user.events.all[from...].firstIndex(of: expected)!
        read.withLock { $0 = end + 1 }
        return try await sort(user.events.all[from..<end])
    }

    /// Every room event so far (connection states apart), in arrival order, whether read or not.
    var allEvents: [RoomEvent] { user.events.all.filter { !Self.isConnectionState($0) } }

    /// Waits until an event matching `matches` has arrived (at any time so far), without reading anything.
    func waitForEvent(_ what: String, timeout: Duration = .seconds(10),
                      _ matches: @escaping @Sendable (RoomEvent) -> Bool) async throws {
        try await user.waitForEvent(what, timeout: timeout, matches)
    }

    /// Waits until the connection ended, and returns what arrived since the last marker.
    func receivedUntilDisconnected() async throws -> Received {
        let from = read.withLock { $0 }
        try await user.events.first("\(name) is disconnected") {
            if case .connectionStateChanged(.disconnected) = $0 { true } else { false }
        }
        let all = user.events.all
        read.withLock { $0 = all.count }
        return try await sort(all[from...])
    }

    private static func isConnectionState(_ event: RoomEvent) -> Bool {
        if case .connectionStateChanged = event { true } else { false }
    }

    /// Sorts `slice` (connection states left out): server candidates are added to the PeerManager connection of
    /// their endpoint.
    private func sort(_ slice: ArraySlice<RoomEvent>) async throws -> Received {
        var received = Received()
        for event in slice where !Self.isConnectionState(event) {
            guard case .iceCandidate(let candidate, let endpoint) = event else {
                received.events.append(event)
                continue
            }
            let id = endpoint.endpointName(ownName: name)
            try await media.addICECandidate(candidate, for: id)
            let remote = try #require(await media.connection(id)?.remoteDescription?.description)
            let parsed = try #require(try candidate.parsed())
            #expect(remote.media[candidate.sdpMLineIndex ?? 0].candidates.contains(parsed))
            received.candidates.append(endpoint)
        }
        return received
    }
}
