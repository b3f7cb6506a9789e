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
        // (from alice, a session without a user: her anonymous id)
        let sender = updates.first?.sender
        guard case .anonymous? = sender else { Issue.record("sender \(String(describing: sender))"); return }
        #expect(updates == [
            SharedObjectUpdate(name: "board", version: version, changed: ["b": "two", "c": nil], sender: sender),
            SharedObjectUpdate(name: "board", version: marker, changed: ["marker": true], sender: sender),
        ])
        #expect(bobBoard.data == ["a": 1, "b": "two", "marker": true])
        // and on the wire too: the notification's `changed` holds exactly those keys
        let wire = bob.log.entries.filter { $0.text.contains("sharedObject.update") }
        let changed = try wire.map { try JSONValue(parsing: $0.text)["params"]?["changed"] }
        #expect(changed == [["b": "two", "c": nil], ["marker": true]])
        await alice.close()
        await bob.close()
        await server.shutdown()
    }
}

extension SharedObjectEndToEndTests {
    @Test func sendReachesEveryClientIncludingTheSender() async throws {
        // Given three clients of one object
        let server = try await SharedObjectServerFixture.start()
        let peers = (0..<3).map { _ in SharedObjectPeer(url: server.url) }
        var objects: [SharedObject] = []
        var subscriptions: [Broadcast<SharedObjectEvent>.Subscription] = []
        for peer in peers {
            let object = peer.shared.object("chat")
            subscriptions.append(object.events)
            try await object.connect()
            objects.append(object)
        }

        // When the first sends a message
        try await objects[0].send("wave", params: ["from": "first", "n": 1])

        // Then all three receive it, the sender included, from the first one's anonymous id
        var senders: Set<SharedObjectSender?> = []
        for (index, events) in subscriptions.enumerated() {
            let seen = try await collect(events, "client \(index)'s message") { event in
                if case .message = event { return true }
                return false
            }
            guard case .message(let method, let params, let sender)? = seen.last else { continue }
            #expect(method == "wave" && params == ["from": "first", "n": 1])
            senders.insert(sender)
        }
        #expect(senders.count == 1)
        guard case .anonymous? = senders.first ?? nil else { Issue.record("senders \(senders)"); return }
        for peer in peers { await peer.close() }
        await server.shutdown()
    }

    @Test func theSetterHasItsChangeInItsSnapshotWhenTheSetReturns() async throws {
        // Given a client of an object
        let server = try await SharedObjectServerFixture.start()
        let peer = SharedObjectPeer(url: server.url)
        let object = try await peer.shared.connect("note")

        // When it sets twice
        let first = try await object.setProperty("text", "hello")
        let second = try await object.setProperty("text", "bye")

        // Then the versions follow each other, and the snapshot already holds each change when its set returns
        #expect(first == 1)
        #expect(second == 2)
        #expect(object.version == 2)
        #expect(object.data == ["text": "bye"])
        // and a set that changes nothing keeps the version
        #expect(try await object.setProperty("text", "bye") == 2)
        #expect(server.service.state(of: "note")?.version == 2)
        await peer.close()
        await server.shutdown()
    }

    @Test func concurrentSettersConvergeToTheSameStateEverywhere() async throws {
        // Given three clients of one object
        let server = try await SharedObjectServerFixture.start(.init(limits: .init(maxUpdatesPerSecond: nil)))
        let peers = (0..<3).map { _ in SharedObjectPeer(url: server.url) }
        var objects: [SharedObject] = []
        for peer in peers { objects.append(try await peer.shared.connect("race")) }

        // When each sets the same keys 40 times at once, every set a different value
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, object) in objects.enumerated() {
                group.addTask {
                    for round in 0..<40 {
                        try await object.setProperties(["shared": .int(index * 1000 + round), "k\(round % 5)": .int(index),
                                                        "by\(index)": .int(round)])
                    }
                }
            }
            try await group.waitForAll()
        }
        // and then one sets a marker
        let marker = try await objects[2].setProperty("marker", "done")

        // Then every client reaches the marker's version with the same data, which is the server's
        for (index, object) in objects.enumerated() {
            try await waitUntil("client \(index) at version \(marker)") { object.version >= marker }
        }
        let serverState = try #require(server.service.state(of: "race"))
        #expect(serverState.version == marker)
        #expect(marker == 3 * 40 + 1)
        for object in objects {
            #expect(object.version == serverState.version)
            #expect(object.data == serverState.data)
        }
        for peer in peers { await peer.close() }
        await server.shutdown()
    }
}
