import JSONRPC
import SharedObjectServer
import SharedObjects
import Testing
import TestSupport

/// After the connection comes back, every open object re-connects and replaces its snapshot.
@Suite struct SharedObjectResyncTests {
    @Test func anObjectResyncsAfterItsConnectionComesBack() async throws {
        // Given alice and bob sharing an object
        let server = try await SharedObjectServerFixture.start()
        // (alice reconnects by hand, without resuming her session: the server has forgotten her objects)
        let alice = SharedObjectPeer(url: server.url, reconnect: .off), bob = SharedObjectPeer(url: server.url)
        let aliceDoc = alice.shared.object("doc")
        let events = aliceDoc.events
        try await aliceDoc.connect()
        let bobDoc = try await bob.shared.connect("doc")
        try await bobDoc.setProperty("x", 1)
        try await waitUntil("alice to see version 1") { aliceDoc.version == 1 }

        // When the server drops alice's connection and bob changes the object meanwhile
        let sessionID = try #require(alice.rpc.sessionId)
        await server.rpc.session(id: sessionID)?.close(code: 1001, reason: "dropped by the test")
        try await waitUntil("alice to notice the drop") { !alice.rpc.isConnected }
        let missed = try await bobDoc.setProperties(["x": 2, "y": "while away"])
        #expect(aliceDoc.version == 1)
        // and alice's connection comes back
        try await alice.rpc.connect()

        // Then alice's object re-syncs: a second `connected` with the whole state, equal to bob's
        let seen = try await collect(events, "alice's re-sync") { event in
            if case .connected(let state) = event { return state.version == missed }
            return false
        }
        #expect(seen.filter { if case .connected = $0 { true } else { false } }.count == 2)
        #expect(aliceDoc.data == ["x": 2, "y": "while away"])
        #expect(aliceDoc.version == bobDoc.version)
        // and later changes reach it again
        let next = try await bobDoc.setProperty("z", true)
        try await waitUntil("alice to see the next change") { aliceDoc.version == next }
        #expect(aliceDoc.data == bobDoc.data)
        await alice.close()
        await bob.close()
        await server.shutdown()
    }
}
