import JSONRPC
import RoomServer
import SharedObjectServer
import SharedObjects
import Testing
import TestSupport

/// The server-wide quotas and the rule on persistent objects (`SharedObjectService.Configuration`): what every
/// session together may keep, each refusal a clear error that changes nothing, and objects that go away when they
/// should.
@Suite struct SharedObjectQuotaTests {
    @Test func theObjectQuotaHoldsForAllSessionsTogether() async throws {
        // Given a server of at most 5 objects, and three sessions holding 2 each but the last
        let server = try await SharedObjectServerFixture.start(.init(quotas: .init(maxObjects: 5)))
        let peers = (0..<3).map { _ in SharedObjectPeer(url: server.url) }
        let first = try await peers[0].shared.connect("a0")
        for (index, peer) in peers.enumerated() {
            for object in 0..<2 where !(index == 0 && object == 0) && !(index == 2 && object == 1) {
                _ = try await peer.shared.connect("\(["a", "b", "c"][index])\(object)")
            }
        }
        #expect(server.service.usage.objects == 5)

        // When the last session connects a sixth
        let refusal = await remoteError { _ = try await peers[2].shared.connect("c1") }

        // Then it is refused with 1103 naming the server's limit, while connecting to an existing one is fine
        #expect(refusal?.code == SharedObjectErrorCode.tooManyObjects.rawValue)
        #expect(refusal?.message.contains("server limit 5") == true, "\(String(describing: refusal))")
        #expect(try await peers[2].shared.connect("a0").isOpen)
        // and once an object goes away with its last client there is room again
        try await first.close()
        try await peers[2].shared.object("a0").close()
        #expect(server.service.usage.objects == 4)
        #expect(try await peers[2].shared.connect("c1").isOpen)
        for peer in peers { await peer.close() }
        await server.shutdown()
    }

    @Test func theByteQuotaRefusesAChangeAndChangesNothing() async throws {
        // Given a server whose objects may hold 1,000 bytes together, and two objects of about 400 each
        let server = try await SharedObjectServerFixture.start(.init(quotas: .init(maxBytes: 1000)))
        let alice = SharedObjectPeer(url: server.url), bob = SharedObjectPeer(url: server.url)
        let one = try await alice.shared.connect("one"), two = try await bob.shared.connect("two")
        try await one.setProperty("v", .string(String(repeating: "a", count: 400)))
        try await two.setProperty("v", .string(String(repeating: "b", count: 400)))
        let used = server.service.usage.bytes
        #expect(used == 2 * (400 + 8))  // {"v":"…"} each

        // When bob grows his past the quota
        let refusal = await remoteError { try await two.setProperty("w", .string(String(repeating: "c", count: 300))) }

        // Then it is refused with 1104 naming the server's limit, and nothing changed
        #expect(refusal?.code == SharedObjectErrorCode.objectTooLarge.rawValue)
        #expect(refusal?.message.contains("server limit 1000") == true, "\(String(describing: refusal))")
        #expect(server.service.state(of: "two")?.version == 1)
        #expect(server.service.usage.bytes == used)
        // and shrinking alice's makes room for it
        try await one.setProperty("v", "a")
        #expect(try await two.setProperty("w", .string(String(repeating: "c", count: 300))) == 2)
        #expect(server.service.usage.bytes == (1 + 8) + (400 + 8) + (300 + 7))
        await alice.close()
        await bob.close()
        await server.shutdown()
    }

    @Test func whereClientsMayNotCreatePersistentObjectsOnlyExistingOnesArePersistent() async throws {
        // Given a store holding one persistent object, and a server whose clients may not create any
        let store = InMemorySharedObjectStore()
        try await store.save(StoredSharedObject(name: "kept", version: 3, data: ["k": 1]))
        let server = try await SharedObjectServerFixture.start(.init(store: store, clientsCreatePersistentObjects: false))
        let peer = SharedObjectPeer(url: server.url)

        // When the client asks for a new persistent object, a new plain one, and the stored one as persistent
        let refusal = await remoteError { _ = try await peer.shared.connect("mine", persistent: true) }
        let plain = try await peer.shared.connect("plain")
        let kept = try await peer.shared.connect("kept", persistent: true)

        // Then only the new persistent one is refused (1102), and nothing was stored for it
        #expect(refusal?.code == SharedObjectErrorCode.unauthorized.rawValue)
        #expect(refusal?.message.contains("clients may not create persistent shared objects") == true)
        #expect(!plain.isPersistent)
        #expect(kept.isPersistent && kept.version == 3 && kept.data == ["k": 1])
        #expect(store.names.sorted() == ["kept"])
        // and the quotas count the stored one and the plain one
        #expect(server.service.usage == SharedObjectUsage(objects: 2, bytes: 7 + 2))
        await peer.close()
        await server.shutdown()
    }

    @Test func nonPersistentObjectsGoAwayWithTheirLastClientHoweverItLeaves() async throws {
        // Given a room server that ends a session as soon as its socket closes
        let server = try await RoomServer.start(.init(reconnectionWindow: .zero))
        let service = try #require(server.sharedObjects)

        // When four sessions run the loop (connect, set 60 KB, close), and four others connect and set, then
        // drop their sockets without closing anything
        let tally = try await SharedObjectAbuse.run(url: server.url, sessions: 4, iterations: 10, persistent: false,
                                                    tag: "loop")
        #expect(tally.connected == 40 && tally.stored == 40, "\(tally)")
        for index in 0..<4 {
            let peer = SharedObjectPeer(url: server.url)
            let object = try await peer.shared.connect("left-\(index)")
            try await object.setProperty("blob", SharedObjectAbuse.blob)
            await peer.close()
        }

        // Then no object is left, and the quotas count nothing
        try await waitUntil("every object to go") { service.liveObjectNames.isEmpty }
        #expect(service.usage == SharedObjectUsage())
        await server.shutdown()
    }

    @Test func aStoreThatCannotCountHasItsObjectsCountedOnceWhenMet() async throws {
        // Given a store that does not report its usage, holding one object of 7 bytes
        let store = UncountedStore()
        try await store.inner.save(StoredSharedObject(name: "old", version: 1, data: ["k": 1]))
        let server = try await SharedObjectServerFixture.start(.init(store: store))
        let peer = SharedObjectPeer(url: server.url)

        // When a client opens it twice over, and creates a persistent object
        try await peer.shared.connect("old").close()
        _ = try await peer.shared.connect("old")
        _ = try await peer.shared.connect("new", persistent: true)

        // Then each is counted once: the old one when met, the new one when made
        #expect(server.service.usage == SharedObjectUsage(objects: 2, bytes: 7 + 2))
        await peer.close()
        await server.shutdown()
    }
}

/// A store that keeps the protocol's default ``SharedObjectStore/usage()``: it cannot say what it holds.
struct UncountedStore: SharedObjectStore {
    let inner = InMemorySharedObjectStore()
    func load(_ name: String) async throws -> StoredSharedObject? { try await inner.load(name) }
    func save(_ object: StoredSharedObject) async throws { try await inner.save(object) }
    func delete(_ name: String) async throws { try await inner.delete(name) }
}
