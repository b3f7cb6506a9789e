import JSONRPC
import RoomClient
import RoomCluster
import SharedObjects
import SignalingSupport
import TestSupport
import Testing

/// Shared objects across nodes: the cluster's Redis gives each change its version, every node's clients see the
/// same versions in order, and messages reach every client.
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterSharedObjectTests {
    /// A member's shared object and what it heard, read one at a time with a deadline.
    final class Watched: Sendable {
        let object: SharedObject
        private let heard: Arrivals<SharedObjectEvent>

        init(_ member: Member, _ name: String) {
            object = member.shared.object(name)
            heard = Arrivals("\(member.name)'s \(name)", of: object.events)
        }

        /// The next update or message (connection events skipped).
        func next() async throws -> SharedObjectEvent {
            while true {
                let event = try await heard.next()
                if case .connected = event { continue }
                return event
            }
        }
    }

    @Test func membersOnTwoNodesShareOneObject() async throws {
        // Given alice on node 0 and bob on node 1, both watching the room's board
        let cluster = try await Cluster.start(nodes: 2)
        let (alice, bob) = try await cluster.aliceAndBob()
        let aliceBoard = Watched(alice, "room:demo/board"), bobBoard = Watched(bob, "room:demo/board")
        #expect(try await aliceBoard.object.connect().version == 0)
        #expect(try await bobBoard.object.connect().version == 0)

        // When alice sets a property, then both see version 1 with it
        #expect(try await aliceBoard.object.setProperties(["color": "red", "shape": ["b": 2, "a": [1, 2.5]]]) == 1)
        let first = SharedObjectEvent.updated(SharedObjectUpdate(
            name: "room:demo/board", version: 1, changed: ["color": "red", "shape": ["b": 2, "a": [1, 2.5]]],
            sender: .user("alice", room: "demo")))
        #expect(try await aliceBoard.next() == first)
        #expect(try await bobBoard.next() == first)

        // When bob sets the same value again, nothing changes; when he removes one, both see version 2
        #expect(try await bobBoard.object.setProperties(["shape": ["a": [1, 2.5], "b": 2]]) == 1)
        #expect(try await bobBoard.object.removeProperty("color") == 2)
        let second = SharedObjectEvent.updated(SharedObjectUpdate(name: "room:demo/board", version: 2, changed: ["color": .null],
                                                                  sender: .user("bob", room: "demo")))
        #expect(try await bobBoard.next() == second)
        #expect(try await aliceBoard.next() == second)

        // When bob sends a message, both get it, from bob (the senders crossed the cluster with the changes)
        try await bobBoard.object.send("flash", params: ["times": 3])
        let flash = SharedObjectEvent.message(method: "flash", params: ["times": 3], sender: .user("bob", room: "demo"))
        #expect(try await aliceBoard.next() == flash)
        #expect(try await bobBoard.next() == flash)

        // And a later client on node 0 gets the state
        let carol = Member("carol", at: cluster.nodes[0])
        _ = try await carol.join()
        let carolBoard = Watched(carol, "room:demo/board")
        let state = try await carolBoard.object.connect()
        #expect(state.version == 2 && state.data == ["shape": ["a": [1, 2.5], "b": 2]])
        await cluster.stop()
    }

    @Test func concurrentSettersOnTwoNodesGetOneOrderOfVersions() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        let (alice, bob) = try await cluster.aliceAndBob()
        let aliceBoard = Watched(alice, "board"), bobBoard = Watched(bob, "board")
        _ = try await aliceBoard.object.connect()
        _ = try await bobBoard.object.connect()

        // When both set 20 values at once
        async let a: Void = { for i in 0..<20 { _ = try await aliceBoard.object.setProperty("a", .int(i)) } }()
        async let b: Void = { for i in 0..<20 { _ = try await bobBoard.object.setProperty("b", .int(i)) } }()
        _ = try await (a, b)

        // Then each side saw versions 1...40 in order, and both hold the same object
        for board in [aliceBoard, bobBoard] {
            for version in 1...40 {
                guard case .updated(let update) = try await board.next() else { Issue.record("not an update"); return }
                #expect(update.version == version)
            }
        }
        #expect(aliceBoard.object.data == ["a": 19, "b": 19])
        #expect(bobBoard.object.data == aliceBoard.object.data)
        await cluster.stop()
    }

    @Test func aNonPersistentObjectIsForgottenWhenItsLastClientOnAnyNodeLeaves() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        let (alice, bob) = try await cluster.aliceAndBob()
        let aliceNote = Watched(alice, "note"), bobNote = Watched(bob, "note")
        _ = try await aliceNote.object.connect()
        _ = try await bobNote.object.connect()
        _ = try await aliceNote.object.setProperty("text", "hi")
        try await aliceNote.object.close()
        // (bob still holds it: it keeps its state)
        let again = Watched(alice, "note")
        #expect(try await again.object.connect().data == ["text": "hi"])
        try await again.object.close()
        try await bobNote.object.close()
        let redis = RedisConnection(url: try RedisURL(parsing: cluster.redis.url))
        try await waitUntil("the object to be forgotten", asyncCondition: {
            (try? await redis.command("EXISTS", "ks:so:note")) == .integer(0)
        })
        let fresh = Watched(alice, "note")
        let state = try await fresh.object.connect()
        #expect(state.version == 0 && state.data.isEmpty)
        await cluster.stop()
    }

    @Test func aPersistentObjectOutlivesItsClientsAndATooLargeChangeIsRefusedEverywhere() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        let (alice, bob) = try await cluster.aliceAndBob()
        let kept = Watched(alice, "kept")
        _ = try await kept.object.connect(persistent: true)
        #expect(try await kept.object.setProperty("title", "plan") == 1)

        // A change past the object size limit (64 KiB by default) is refused with 1104 and changes nothing
        let refused = await #expect(throws: RPCError.self) {
            _ = try await kept.object.setProperty("blob", .string(String(repeating: "x", count: 70_000)))
        }
        guard case .remote(let error)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(error.code == 1104)

        // When its only client leaves, a client on the other node still finds it
        try await kept.object.close()
        let later = Watched(bob, "kept")
        let state = try await later.object.connect()
        #expect(state.version == 1 && state.persistent && state.data == ["title": "plan"])
        await cluster.stop()
    }
}
