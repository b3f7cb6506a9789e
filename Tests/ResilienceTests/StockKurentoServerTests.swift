import JSONRPC
import JSONRPCWebSocket
import RoomClient
import RoomProtocol
import SignalingSupport
import TestSupport
import Testing

/// A RoomClient against TestSupport's StockKurentoRoomServer, which neither dedupes ids nor replays what a resumed
/// session missed (docs/wire-protocol.md#stock-kurento).
@Suite(.serialized)
struct StockKurentoServerTests {
    /// A client of `server` (through `url`) on `clock`, with heartbeat and reconnect as given.
    static func client(_ user: String, url: String, _ configuration: RoomClient.Configuration) -> RoomClient {
        RoomClient(room: Room(username: user, roomName: "r", url: url), configuration: configuration)
    }

    /// Publishes while the server takes long (its gate shut), lets `time` pass on the client's clock, then lets the
    /// server answer; returns how many publishVideo requests it got once a later chat went through behind them.
    static func slowPublish(_ configuration: RoomClient.Configuration, clock: ManualClock, time: Duration,
                            expectRetry: Bool) async throws -> Int {
        let server = try StockKurentoRoomServer()
        defer { server.stop() }
        let gate = BlockingGate()
        server.publishGate.withLock { $0 = gate }
        let alice = client("alice", url: server.url, configuration)
        try await alice.join()

        let publish = Task { try await alice.publishVideo(sdpOffer: "v=0 offer") }
        try await waitUntil("the server to get publishVideo") { server.runs.withLock { $0 }["publishVideo"] == 1 }
        try await advance(clock, by: time, whenTimersExceed: 0)
        if expectRetry {
            // The client gave up on the first attempt and sent the same id again: a stock server runs it again
            try await waitUntil("the retry to arrive") { server.runs.withLock { $0 }["publishVideo"] == 2 }
        }
        gate.open()
        #expect(try await publish.value == "v=0 offer")
        // A chat after it: anything the client sent before has arrived by the time the server ran it
        try await alice.sendMessage("after")
        try await waitUntil("the chat") { server.runs.withLock { $0 }["sendMessage"] == 1 }
        await alice.disconnect()
        return server.runs.withLock { $0 }["publishVideo"] ?? 0
    }

    @Test func aSlowPublishRunsOnceWithTheDefaultsAndWithTheStockKurentoProfile() async throws {
        // With the defaults (5 s, one retry), 6 s of a slow media server pass: the session's opening `connect` said
        // "OK" and no dedupe, so the retry waits without re-sending, and the client publishes once
        let clock = ManualClock()
        let defaults = RoomClient.Configuration(reconnect: .off, heartbeat: .off)
        var manual = defaults
        manual.clock = clock
        #expect(try await Self.slowPublish(manual, clock: clock, time: .seconds(6), expectRetry: false) == 1)

        // With the profile (15 s, no retries) 10 s pass and it publishes once
        let profileClock = ManualClock()
        var profile = RoomClient.Configuration.stockKurento
        profile.clock = profileClock
        profile.reconnect = .off
        profile.heartbeat = .off
        #expect(try await Self.slowPublish(profile, clock: profileClock, time: .seconds(10), expectRetry: false) == 1)
    }

    @Test func aResumeIntoAServerThatDoesNotReplayResyncsAndReportsWhatWasMissed() async throws {
        // Given alice (through a proxy) and bob in a room of a stock server
        let server = try StockKurentoRoomServer()
        defer { server.stop() }
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        var configuration = RoomClient.Configuration(
            requestTimeout: .seconds(10) * deadlineScale, retries: 0, reconnect: .automatic(.fast),
            heartbeat: .every(.milliseconds(150)))
        configuration.resendsOnResume = false
        let alice = Self.client("alice", url: proxy.url(path: "/room"), configuration)
        let witness = RoomClient.Configuration(reconnect: .off, heartbeat: .off)
        let bob = Self.client("bob", url: server.url, witness), carol = Self.client("carol", url: server.url, witness)
        try await alice.join()
        try await bob.join()
        let aliceSaw = EventLog(alice)
        try await waitUntil("alice to see bob") { alice.peers.map(\.identifier) == ["bob"] }

        // When alice's connection is cut, and meanwhile bob publishes and carol joins
        proxy.cutAll(refusingFor: .seconds(1) * deadlineScale)
        try await aliceSaw.wait(for: "alice to reconnect") { $0 == .connectionStateChanged(.reconnecting(attempt: 1)) }
        _ = try await bob.publishVideo(sdpOffer: "v=0 bob")
        try await carol.join()

        // Then alice resumes, sees the server does not replay, leaves and joins again, and reports the differences
        try await aliceSaw.wait(for: "alice to resume") { $0 == .connectionStateChanged(.resumed) }
        try await aliceSaw.wait(for: "the resync") { $0 == .connectionStateChanged(.rejoined) }
        let missed = aliceSaw.all.filter {
            switch $0 {
            case .participantJoined, .participantPublished, .participantLeft, .participantUnpublished: true
            default: false
            }
        }
        #expect(missed.suffix(2) == [
            .participantPublished(Peer(identifier: "bob", streams: ["webcam"])), .participantJoined(Peer(identifier: "carol")),
        ])
        #expect(alice.peers.map(\.identifier).sorted() == ["bob", "carol"])
        #expect(alice.peers.first { $0.identifier == "bob" }?.streams == ["webcam"])
        #expect(server.runs.withLock { $0 }["leaveRoom"] == 1)
        #expect(server.members(of: "r") == ["alice": false, "bob": true, "carol": false])
        for client in [alice, bob, carol] { await client.disconnect() }
    }
}
