import JSONRPC
import SharedObjectServer
import SharedObjects
import Testing
import TestSupport

/// Shared objects over real sockets: a JSONRPCServer with the service installed, clients on 127.0.0.1.
@Suite struct SharedObjectEndToEndTests {
    @Test func threeClientsEachReceiveTheFullStateOnConnect() async throws {
        // Given an object that already holds two keys
        let server = try await SharedObjectServerFixture.start()
        let writer = SharedObjectPeer(url: server.url)
        let board = try await writer.shared.connect("board")
        let version = try await board.setProperties(["title": "plan", "count": 3])

        // When three clients connect
        let peers = (0..<3).map { _ in SharedObjectPeer(url: server.url) }
        var states: [SharedObjectState] = []
        for peer in peers { states.append(try await peer.shared.object("board").connect()) }

        // Then each has the whole state at the writer's version, in its result and in its snapshot
        for (peer, state) in zip(peers, states) {
            #expect(state == SharedObjectState(name: "board", version: version, persistent: false,
                                               data: ["title": "plan", "count": 3]))
            #expect(peer.shared.object("board").data == ["title": "plan", "count": 3])
            #expect(peer.shared.object("board").version == version)
        }
        for peer in peers + [writer] { await peer.close() }
        await server.shutdown()
    }
}

extension SharedObjectEndToEndTests {
    @Test func updatesCarryOnlyTheChangedKeys() async throws {
        // Given two clients of an object with three keys
        let server = try await SharedObjectServerFixture.start()
        let alice = SharedObjectPeer(url: server.url), bob = SharedObjectPeer(url: server.url)
        let aliceBoard = try await alice.shared.connect("board")
        try await aliceBoard.setProperties(["a": 1, "b": 2, "c": 3])
        let bobBoard = bob.shared.object("board")
        let events = bobBoard.events
        try await bobBoard.connect()

        // When alice changes b, removes c and sets a to the value it has
        let version = try await aliceBoard.setProperties(["a": 1, "b": "two", "c": nil])
        // and then sets a marker
        let marker = try await aliceBoard.setProperty("marker", true)

        // Then bob's update names b and c only (c as null: removed), and then the marker
        let seen = try await collect(events, "bob's updates up to the marker") { event in
            if case .updated(let update) = event { return update.version == marker }
            return false
        }
        let updates = seen.compactMap { event -> SharedObjectUpdate? in
            if case .updated(let update) = event { update } else { nil }
        }
        #expect(updates == [
            SharedObjectUpdate(name: "board", version: version, changed: ["b": "two", "c": nil]),
            SharedObjectUpdate(name: "board", version: marker, changed: ["marker": true]),
        ])
        #expect(bobBoard.data == ["a": 1, "b": "two", "marker": true])
        // and on the wire too: the notification's `changed` holds exactly those keys
        let wire = bob.log.entries.value.filter { $0.text.contains("sharedObject.update") }
        let changed = try wire.map { try JSONValue(parsing: $0.text)["params"]?["changed"] }
        #expect(changed == [["b": "two", "c": nil], ["marker": true]])
        await alice.close()
        await bob.close()
        await server.shutdown()
    }
}
