import JSONRPC
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// Tree (docs/wire-protocol.md#tree) over real sockets: the server's `iceCandidate` notifications to a session in its
/// reconnection window wait in its outbox, as Room's do (docs/architecture.md#server-sessions), and are replayed on
/// `connect{sessionId}`. (Here rather than in TreeTests: it drives the wire with ``RoomPeer`` and holds the backend
/// with ``TestMediaBackend``.)
@Suite struct TreeOutboxTests {
    /// A server on a manual clock whose backend answers with 3 candidates, and a raw Tree client that created
    /// tree `t` and whose `setTreeSource` is held at the backend when its socket drops; then the backend answers.
    /// Returns the client's session id. The backend answers only once the server detached the session (its
    /// reconnection window runs): a candidate written to the closing socket before that would count as sent to a
    /// stock client, which reads nothing after its close.
    static func ownerAwayWhileTheSourceIsCreated(limits: RoomServerLimits = .init())
        async throws -> (server: RoomServer, backend: TestMediaBackend, clock: ManualClock, sessionId: String)
    {
        let clock = ManualClock()
        let backend = TestMediaBackend(candidatesPerEndpoint: 3)
        let server = try await RoomServer.start(.init(media: backend, limits: limits, reconnectionWindow: .seconds(5),
                                                      authorizeTreeId: { _ in true }, clock: clock))
        let owner = try await RoomPeer.dialing(server.treeURL)
        let sid = try #require(try await owner.result("createTree", ["treeId": "t"])["sessionId"]?.stringValue)
        backend.hold()
        _ = try await owner.send("setTreeSource", ["treeId": "t", "offerSdp": "offer"])
        try await waitUntil("the source's creation to be held") { backend.waitingCalls == 1 }
        let timersBefore = clock.pendingTimers
        await owner.connection.close(code: 1001, reason: "dropped")
        try await waitUntil("the reconnection window to start") { clock.pendingTimers > timersBefore }
        backend.open()
        return (server, backend, clock, sid)
    }

    @Test func candidatesSentWhileAwayAreReplayedInOrderOnceOnResume() async throws {
        // Given the owner away while the backend created its source
        let (server, _, _, sid) = try await Self.ownerAwayWhileTheSourceIsCreated()
        try await waitUntil("the source to be set while the owner is away") { server.trees["t"]?.hasSource == true }

        // Then a new socket that resumes the session gets the 3 candidates, in order
        let again = try await RoomPeer.dialing(server.treeURL)
        #expect(try await again.result("connect", ["sessionId": .string(sid)])["value"] == "reconnection successful")
        for index in 0..<3 {
            let params = try await again.notification("iceCandidate")
            #expect(params["treeId"] == "t")
            #expect(params["sinkId"] == nil)
            #expect(params["candidate"] == .string(TestMediaBackend.serverCandidate(index).candidate))
        }
        // And only once: nothing more arrived before the reply to a marker request
        try await again.result("createTree", ["treeId": "marker"])
        #expect(again.unreadNotifications.isEmpty)
        #expect(server.trees["t"]?.hasSource == true)
        await again.connection.close(code: 1000, reason: "done")
        await server.shutdown()
    }

    @Test func outboxOverflowWhileAwayEndsTheSession() async throws {
        // Given outboxes of 2 notifications, and the owner away while the backend created its source:
        // when the backend answered with 3 candidates meanwhile
        let (server, backend, _, sid) = try await Self.ownerAwayWhileTheSourceIsCreated(
            limits: .init(maxQueuedNotifications: 2))

        // Then the session ends (its tree goes, within the window) and cannot be resumed
        try await waitUntil("the owner's session to end") { server.trees.isEmpty }
        let again = try await RoomPeer.dialing(server.treeURL)
        #expect(try await again.error("connect", ["sessionId": .string(sid)])["code"] == 40007)
        try await waitUntil("its source to be released") { backend.record.withLock { $0.released } == [.treeSource("t")] }
        await again.connection.close(code: 1000, reason: "done")
        await server.shutdown()
    }
}
