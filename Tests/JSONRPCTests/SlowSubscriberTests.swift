import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// A subscriber that falls behind either gets every event or is told, once, that it lost some
/// (docs/architecture.md#event-streams): the delegate hears how many and goes on; an async sequence gets what it
/// buffered, then `BroadcastOverflow`. The busy delegate holds a thread while it blocks: such tests take turns
/// (`BlockingGate.withTurn`).
@Suite struct SlowSubscriberTests {
    /// A delegate that blocks its thread in its first callback until the test opens its gate.
    final class BusyDelegate: JSONRPCClientDelegate {
        let gate = BlockingGate()
        let log = LockedValue<[String]>([])
        func clientDidConnect(_ client: JSONRPCClient) {
            log.withLock { $0.append("connect") }
            gate.block()
        }
        func client(_ client: JSONRPCClient, didReceiveRequest request: RPCRequest) {
            log.withLock { $0.append("request \(request.method)") }
        }
        func client(_ client: JSONRPCClient, didFailWithError error: RPCError) { log.withLock { $0.append("fail") } }
        func client(_ client: JSONRPCClient, didLoseEvents count: Int) {
            log.withLock { $0.append("lost \(count) while \(client.connectionState)") }
        }
    }

    static let patient = JSONRPCClient.Configuration(requestTimeout: .seconds(120), reconnect: .off, heartbeat: .off,
                                                     notificationBufferLimit: 8)

    @Test func aDelegateThatFallsBehindIsToldOnceHowManyEventsItMissedAndHearsTheLaterOnes() async throws {
        try await BlockingGate.withTurn {
            // Given a client whose delegate is busy in its first callback, and a raw peer
            let (near, far) = LocalMessageConnection.pair()
            let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: Self.patient)
            let delegate = BusyDelegate()
            client.delegate = delegate
            let peer = RawPeer(connection: far)
            try await client.connect()
            try await waitUntil("the delegate to be busy") { delegate.gate.isBlocking }

            // When the server sends 10 more invalid messages than the delegate's buffer of 4,096 holds, and a
            // request (answered with -32601 once every event before it was published), and only then the delegate
            // gets through
            let buffer = 4096
            for _ in 0..<(buffer + 10) { try await peer.send("not json") }
            _ = try await peer.exchange(#"{"jsonrpc":"2.0","method":"missed","id":1}"#)
            delegate.gate.open()

            // Then it hears the 4,096 failures that fit and, without waiting for more traffic, that it lost 11
            try await waitUntil("the loss report") { delegate.log.withLock { $0 }.count == 1 + buffer + 1 }
            let log = delegate.log.withLock { $0 }
            #expect(log.first == "connect")
            #expect(log.dropFirst().prefix(buffer).allSatisfy { $0 == "fail" })
            #expect(log.last == "lost 11 while connected")

            // And it goes on: it hears a later request
            _ = try await peer.exchange(#"{"jsonrpc":"2.0","method":"later","id":2}"#)
            try await waitUntil("the later request") { delegate.log.withLock { $0 }.count == 1 + buffer + 2 }
            #expect(delegate.log.withLock { $0 }.last == "request later")
        }
    }

    @Test func aNotificationSubscriberThatFallsBehindGetsWhatItBufferedThenOneOverflowAndANewOneGoesOn() async throws {
        // Given a client with buffers of 8 notifications, and a subscriber that does not read yet
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: Self.patient)
        let peer = RawPeer(connection: far)
        try await client.connect()
        let slow = client.notifications

        // When the server sends 12 notifications, then a request (answered once all 12 were published)
        for n in 0..<12 { try await peer.send(#"{"jsonrpc":"2.0","method":"n","params":[\#(n)]}"#) }
        _ = try await peer.exchange(#"{"jsonrpc":"2.0","method":"marker","id":1}"#)

        // Then the subscriber gets the first 8, in order, then BroadcastOverflow, once, and its sequence is over
        var iterator = slow.makeAsyncIterator()
        var seen: [Int] = []
        while seen.count < 8, let note = try await iterator.next() { seen.append(note.params?[0]?.intValue ?? -1) }
        #expect(seen == Array(0..<8))
        await #expect(throws: BroadcastOverflow(limit: 8)) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)

        // And a new subscriber hears the next notification
        let fresh = client.notifications
        try await peer.send(#"{"jsonrpc":"2.0","method":"n","params":[12]}"#)
        let next = try await withDeadline(.seconds(10), "the next notification") {
            var iterator = fresh.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(next?.params?[0]?.intValue == 12)
        await client.close()
    }
}
