import JSONRPC
import PeerManager
import RoomProtocol
import RoomServer
import SDP
import SignalingSupport
import TestSupport
import Testing
import TreeClient

/// One Tree client of the end-to-end tests: a ``TreeClient`` over a recorded real socket, a ``PeerManager`` for its
/// SDP (no real media), and every event it received, in order.
final class TreeUser: Sendable {
    let client: TreeClient
    let media = PeerManager()
    /// Tree events in arrival order (connection states left out).
    private let inbox: Arrivals<TreeEvent>
    /// The local PeerManager id of each sink.
    private let localIds = LockedValue<[String: String]>([:])

    /// Long timeouts and no retries: the tests wait on events, and a loaded machine must not time calls out.
    static let patient = TreeClient.Configuration(requestTimeout: .seconds(120), retries: 0)

    init(_ server: RoomServer, _ wire: WireRecorder) {
        client = TreeClient(url: server.treeURL, transport: wire.transport(server.treeURL), configuration: Self.patient)
        inbox = Arrivals("tree events", of: client.events.filter { event in
            if case .connectionStateChanged = event { false } else { true }
        })
    }

    /// Sets the source of `tree` with a send-only PeerManager offer, applies the answer and the server's
    /// candidate, and trickles a host candidate on `port`.
    func setSource(tree: String, port: Int) async throws {
        let id = "source:\(tree)"
        let offer = try await media.generateOffer(for: id, media: .audioVideo(direction: .sendonly))
        let answer = try await client.setSource(sdpOffer: offer, tree: tree)
        try await media.processAnswer(answer, for: id)
        try await negotiated(.source, of: tree, localId: id, port: port)
    }

    /// Adds a sink to `tree` with a receive-only PeerManager offer, applies the answer and the server's candidate,
    /// trickles a host candidate on `port`, and returns the sink's id.
    @discardableResult
    func addSink(tree: String, port: Int) async throws -> String {
        let id = "sink:\(port)"
        let offer = try await media.generateOffer(for: id, media: .audioVideo(direction: .recvonly))
        let sink = try await client.addSink(sdpOffer: offer, tree: tree)
        #expect(!sink.id.isEmpty)
        localIds.withLock { $0[sink.id] = id }
        try await media.processAnswer(sink.sdpAnswer, for: id)
        try await negotiated(.sink(sink.id), of: tree, localId: id, port: port)
        return sink.id
    }

    /// The answer is applied: the connection is stable. The server's candidate for `endpoint` (sent before the
    /// answer) is added to it, and a host candidate is sent for it.
    private func negotiated(_ endpoint: TreeEndpoint, of tree: String, localId: String, port: Int) async throws {
        #expect(await media.connection(localId)?.signalingState == .stable)
        let candidate = try await firstCandidate(for: endpoint, of: tree)
        try await media.addICECandidate(candidate, for: localId)
        let remote = try #require(await media.connection(localId)?.remoteDescription?.description)
        #expect(remote.media[candidate.sdpMLineIndex ?? 0].candidates.contains(try #require(try candidate.parsed())))
        let local = try await media.addHostCandidate(address: "127.0.0.1", port: port, for: localId)
        try await client.sendICECandidate(local, for: endpoint, tree: tree)
    }

    /// Waits for the first server candidate for `endpoint` of `tree`.
    private func firstCandidate(for endpoint: TreeEndpoint, of tree: String) async throws -> IceCandidate {
        let event = try await inbox.first("a candidate for the \(endpoint) of \(tree)") {
            Self.candidate(in: $0, for: endpoint, of: tree) != nil
        }
        return Self.candidate(in: event, for: endpoint, of: tree)!
    }

    /// The events before the first candidate for `marker` of `tree`, once that arrived (docs/testing.md#deadlines).
    func events(before marker: TreeEndpoint, of tree: String) async throws -> [TreeEvent] {
        _ = try await firstCandidate(for: marker, of: tree)
        let events = inbox.all
        return Array(events[..<events.firstIndex { Self.candidate(in: $0, for: marker, of: tree) != nil }!])
    }

    /// Waits until an event matching `matches` has arrived (at any time so far).
    func waitForEvent(_ what: String, _ matches: @escaping @Sendable (TreeEvent) -> Bool) async throws {
        try await inbox.first(what, where: matches)
    }

    private static func candidate(in event: TreeEvent, for endpoint: TreeEndpoint, of tree: String) -> IceCandidate? {
        guard case .iceCandidate(let candidate, tree, endpoint) = event else { return nil }
        return candidate
    }
}
