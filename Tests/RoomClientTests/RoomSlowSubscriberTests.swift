import JSONRPC
import RoomClient
import SignalingSupport
import TestSupport
import Testing

/// A room subscriber that falls behind either gets every event or is told, once, that it lost some
/// (docs/architecture.md#event-streams), and can resynchronize from the peers model, which already holds what it
/// missed. The busy delegate holds a thread while it blocks: such tests take turns (`BlockingGate.withTurn`).
@Suite("RoomClient slow subscribers")
struct RoomSlowSubscriberTests {
    /// A delegate that blocks its thread in its first callback until the test opens its gate.
    final class BusyDelegate: RoomClientDelegate {
        let gate = BlockingGate()
        let log = LockedValue<[String]>([])
        func client(_ client: RoomClient, participantJoined peer: Peer) {
            log.withLock { $0.append("joined \(peer.identifier)") }
            gate.block()
        }
        func client(_ client: RoomClient, participantLeft peer: Peer) {
            log.withLock { $0.append("left \(peer.identifier)") }
        }
        func client(_ client: RoomClient, didLoseEvents count: Int) {
            let resynchronized = client.peer(withIdentifier: "p10") != nil ? "p10 is in the peers" : "p10 is unknown"
            log.withLock { $0.append("lost \(count); \(resynchronized)") }
        }
    }

    /// Buffers of 4 events.
    static let smallBuffers = RoomClient.Configuration(requestTimeout: .seconds(120), retries: 0, eventBufferLimit: 4,
                                                       reconnect: .off, heartbeat: .off)

    @Test("a delegate that falls behind is told once how many events it missed, and hears the later ones")
    func busyDelegate() async throws {
        try await BlockingGate.withTurn {
            // Given a joined client whose delegate is busy in its first callback
            let room = RoomFixture(configuration: Self.smallBuffers)
            try await room.join()
            let delegate = BusyDelegate()
            room.client.delegate = delegate
            try await room.peer.notify("participantJoined", params: #"{"id":"p0"}"#)
            try await waitUntil("the delegate to be busy") { delegate.gate.isBlocking }

            // When ten more participants join (the peers model has them all) before the delegate gets through
            for n in 1...10 { try await room.peer.notify("participantJoined", params: #"{"id":"p\#(n)"}"#) }
            try await waitUntil("eleven peers") { room.client.peers.count == 11 }
            delegate.gate.open()

            // Then it hears the four that fit, then at once that it missed six, and finds them in the peers model
            try await waitUntil("the loss report") { delegate.log.withLock { $0 }.count == 6 }
            #expect(delegate.log.withLock { $0 } == ["joined p0", "joined p1", "joined p2", "joined p3", "joined p4",
                                           "lost 6; p10 is in the peers"])

            // And it goes on: it hears a later leave
            try await room.peer.notify("participantLeft", params: #"{"name":"p0"}"#)
            try await waitUntil("the leave") { delegate.log.withLock { $0 }.count == 7 }
            #expect(delegate.log.withLock { $0 }.last == "left p0")
        }
    }

    @Test("an events subscriber that falls behind gets what it buffered, then one BroadcastOverflow, and can start again")
    func slowSequence() async throws {
        // Given a joined client and a subscriber that does not read yet
        let room = RoomFixture(configuration: Self.smallBuffers)
        try await room.join()
        let slow = room.client.events

        // When six participants join
        for n in 0..<6 { try await room.peer.notify("participantJoined", params: #"{"id":"p\#(n)"}"#) }
        try await waitUntil("six peers") { room.client.peers.count == 6 }

        // Then it gets the first four, in order, then BroadcastOverflow, once, and its sequence is over
        var iterator = slow.makeAsyncIterator()
        var seen: [RoomEvent] = []
        while seen.count < 4, let event = try await iterator.next() { seen.append(event) }
        #expect(seen == (0..<4).map { .participantJoined(Peer(identifier: "p\($0)")) })
        await #expect(throws: BroadcastOverflow(limit: 4)) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)

        // And a new subscriber finds the missed participants in the peers model and hears the next event
        #expect(room.client.peers.map(\.identifier) == (0..<6).map { "p\($0)" })
        let fresh = room.client.events
        try await room.peer.notify("participantLeft", params: #"{"name":"p5"}"#)
        let next = try await withDeadline(.seconds(10), "the next event") {
            var iterator = fresh.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(next == .participantLeft(Peer(identifier: "p5")))
    }
}
