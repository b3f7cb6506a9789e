import JSONRPC
import RoomClient
import RoomServer
import SharedObjectServer
import SharedObjects
import Testing
import TestSupport

/// Shared objects through the client's automatic recovery (docs/architecture.md#room-recovery): a resumed session
/// re-syncs by itself; after a rejoin into a fresh session, `resyncAll()` brings the room's objects back.
@Suite struct SharedObjectRecoveryTests {
    static let backoff = JSONRPCClient.Backoff(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400),
                                                budget: .seconds(20))

    static func port(of url: String) -> Int { Int(url.split(separator: ":").last!.split(separator: "/").first!)! }

    /// alice, reconnecting by herself, through `proxy`.
    static func recovering(_ user: String, through proxy: FaultProxy) -> RoomClient {
        RoomClient(room: Room(username: user, roomName: "r", url: proxy.url(path: "/room")),
                   configuration: .init(requestTimeout: .seconds(10) * deadlineScale, retries: 0,
                                        reconnect: .automatic(backoff), heartbeat: .every(.milliseconds(150))))
    }

    /// A direct client that neither reconnects nor pings.
    static func witness(_ user: String, at url: String) -> RoomClient {
        RoomClient(room: Room(username: user, roomName: "r", url: url), configuration: .init(reconnect: .off, heartbeat: .off))
    }

    @Test func aResumedSessionResyncsItsObjectsByItself() async throws {
        // Given alice (through a proxy) and bob sharing room r's doc on a server that keeps sessions for 2 s
        let server = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        let proxy = try FaultProxy(targetPort: Self.port(of: server.url))
        defer { proxy.stop() }
        let alice = Self.recovering("alice", through: proxy), bob = Self.witness("bob", at: server.url)
        try await alice.join()
        try await bob.join()
        let aliceDoc = SharedObjectClient(client: alice.jsonRPCClient).object("room:r/doc")
        let events = aliceDoc.events
        try await aliceDoc.connect()
        let bobDoc = try await SharedObjectClient(client: bob.jsonRPCClient).connect("room:r/doc")
        try await bobDoc.setProperty("x", 1)
        try await waitUntil("alice at version 1") { aliceDoc.version == 1 }

        // When alice's connection is cut (and refused for 300 ms) and bob changes the doc meanwhile
        proxy.cutAll(refusingFor: .milliseconds(300))
        try await waitUntil("alice to notice the cut") { !alice.jsonRPCClient.isConnected }
        let missed = try await bobDoc.setProperties(["x": 2, "y": "while away"])

        // Then once alice resumes, her doc re-syncs on its own to bob's state
        _ = try await collect(events, "alice's re-sync") { event in
            if case .connected(let state) = event { return state.version >= missed }
            return false
        }
        #expect(aliceDoc.data == ["x": 2, "y": "while away"])
        // and later changes reach her again
        let next = try await bobDoc.setProperty("z", true)
        try await waitUntil("alice to see the next change") { aliceDoc.version == next }
        #expect(aliceDoc.data == bobDoc.data)
        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }

    @Test func afterARejoinResyncAllBringsTheRoomsObjectsBack() async throws {
        // Given alice (through a proxy) holding room r's persistent doc, on a server whose store outlives it
        let store = InMemorySharedObjectStore()
        let first = try await RoomServer.start(.init(reconnectionWindow: .seconds(2), sharedObjects: .init(store: store)))
        let proxy = try FaultProxy(targetPort: Self.port(of: first.url))
        defer { proxy.stop() }
        let alice = Self.recovering("alice", through: proxy)
        let roomEvents = alice.events
        try await alice.join()
        let shared = SharedObjectClient(client: alice.jsonRPCClient)
        let doc = try await shared.connect("room:r/doc", persistent: true)
        try await doc.setProperty("color", "red")

        // When the server is replaced by a new one with the same store, and the connection drops
        let second = try await RoomServer.start(.init(reconnectionWindow: .seconds(2), sharedObjects: .init(store: store)))
        proxy.retarget(port: Self.port(of: second.url))
        proxy.cutAll()
        // and alice's application re-syncs once the room client reports the rejoin
        _ = try await withDeadline(.seconds(10), "alice's rejoin") {
            try await roomEvents.first { $0 == .connectionStateChanged(.rejoined) }
        }
        await shared.resyncAll()

        // Then her doc is attached on the new server: bob's change there reaches her
        let bob = Self.witness("bob", at: second.url)
        try await bob.join()
        let bobDoc = try await SharedObjectClient(client: bob.jsonRPCClient).connect("room:r/doc")
        #expect(bobDoc.data == ["color": "red"])
        let version = try await bobDoc.setProperty("color", "blue")
        try await waitUntil("alice to see bob's colour") { doc.version == version }
        #expect(doc.data == ["color": "blue"])
        await alice.disconnect()
        await bob.disconnect()
        await first.shutdown()
        await second.shutdown()
    }
}
