import JSONRPC
import PeerManager
import RoomClient
import RoomProtocol
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
    let name: String
    let client: RoomClient
    let media = PeerManager()
    /// Room events in arrival order, how many were read, and whether the connection ended.
    private let inbox = LockedValue<(events: [RoomEvent], read: Int, disconnected: Bool)>(([], 0, false))
    private let consumer: Task<Void, Never>

    init(_ name: String, room: String, url: String, configuration: RoomClient.Configuration = .init()) {
        self.name = name
        client = RoomClient(room: Room(username: name, roomName: room, url: url), configuration: configuration)
        let events = client.events
        consumer = Task { [inbox] in
            do {
                for try await event in events {
                    inbox.withLock { box in
                        switch event {
                        case .connectionStateChanged(.disconnected): box.disconnected = true
                        case .connectionStateChanged: break
                        default: box.events.append(event)
                        }
                    }
                }
            } catch {}
        }
    }

    deinit { consumer.cancel() }

    /// Connects and joins; returns the participants already there.
    func join() async throws -> [Peer] {
        try await client.connect()
        return try await client.join()
    }

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
        try await waitUntil("\(name) receives \(marker)") { [inbox] in
            inbox.withLock { $0.events[$0.read...].contains(expected) }
        }
        let slice = inbox.withLock { box -> [RoomEvent] in
            let end = box.events[box.read...].firstIndex(of: expected)!
            defer { box.read = end + 1 }
            return Array(box.events[box.read..<end])
        }
        return try await sort(slice)
    }

    /// Every room event so far (connection states apart), in arrival order, whether read or not.
    var allEvents: [RoomEvent] { inbox.withLock { $0.events } }

    /// Waits until an event matching `matches` has arrived (at any time so far), without reading anything.
    func waitForEvent(_ what: String, timeout: Duration = .seconds(10),
                      _ matches: @escaping @Sendable (RoomEvent) -> Bool) async throws {
        try await waitUntil("\(name): \(what)", timeout: timeout) { [inbox] in
            inbox.withLock { $0.events.contains(where: matches) }
        }
    }

    /// Waits until the connection ended, and returns what arrived since the last marker.
    func receivedUntilDisconnected() async throws -> Received {
        try await waitUntil("\(name) is disconnected") { [inbox] in inbox.withLock { $0.disconnected } }
        let slice = inbox.withLock { box -> [RoomEvent] in
            defer { box.read = box.events.count }
            return Array(box.events[box.read...])
        }
        return try await sort(slice)
    }

    private func sort(_ slice: [RoomEvent]) async throws -> Received {
        var received = Received()
        for event in slice {
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
