import JSONRPC
import SharedObjects
import SignalingSupport
import Testing
import TestSupport

/// No user code runs under a lock of the object (docs/architecture.md#callbacks): a shared object's delegate may read
/// it and call it back.
@Suite struct SharedObjectReentrancyTests {
    /// A delegate that answers the first update it sees with a change of its own, reading the object as it does.
    final class EchoingDelegate: SharedObjectDelegate {
        let log = LockedValue<[String]>([])
        func sharedObject(_ object: SharedObject, didConnect state: SharedObjectState) {
            log.withLock { $0.append("connected at \(object.version), open: \(object.isOpen)") }
        }
        func sharedObject(_ object: SharedObject, didUpdate update: SharedObjectUpdate) {
            log.withLock { $0.append("v\(update.version): \(object.data.keys.sorted())") }
            guard update.changedKeys == ["ping"] else { return }
            Task { try await object.setProperty("pong", .int(update.version)) }
        }
    }

    @Test func aDelegateCanReadTheObjectAndChangeItFromACallback() async throws {
        // Given bob's object with a delegate that answers a "ping" with a "pong"
        let server = try await SharedObjectServerFixture.start()
        let alice = SharedObjectPeer(url: server.url), bob = SharedObjectPeer(url: server.url)
        let bobBoard = bob.shared.object("board")
        let delegate = EchoingDelegate()
        bobBoard.delegate = delegate
        try await bobBoard.connect()
        let aliceBoard = try await alice.shared.connect("board")

        // When alice pings
        let ping = try await aliceBoard.setProperty("ping", true)

        // Then bob's delegate read the object at each step and its pong reached alice
        try await waitUntil("the pong") { aliceBoard.data["pong"] == .int(ping) }
        try await waitUntil("bob's own pong") { delegate.log.withLock { $0 }.count == 3 }
        #expect(delegate.log.withLock { $0 } == ["connected at 0, open: true", #"v1: ["ping"]"#, #"v2: ["ping", "pong"]"#])
        await alice.close()
        await bob.close()
        await server.shutdown()
    }
}
