import Foundation
import SignalingSupport
import TestSupport
import Testing
@testable import WebSocketTransport

/// A server writes several queued small messages in one write, framing them itself; lws's client parser (which we
/// did not write) is the witness that every frame is well formed, whole and in order.
@Suite struct BatchedWriteTests {
    /// Sizes around every header form (7-bit, 16-bit and 64-bit lengths), empty messages, and messages too big for
    /// one frame, which keep lws's framing between batches.
    static let sizes = [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000, 3, 200_000, 17]

    /// Message `index`: every size in turn, text and binary in alternate rounds, its bytes telling it apart.
    static func message(_ index: Int) -> WebSocketMessage {
        let size = sizes[index % sizes.count]
        if (index / sizes.count) % 2 == 1 { return .binary(Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) })) }
        return .text(String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: size))
    }

    @Test func messagesQueuedTogetherArriveWholeAndInOrderAndSomeLeftInBatches() async throws {
        // Given a server that, once a client connects, queues 600 messages without waiting for any
        // (600 messages are about 20 MB: more than the default outbound limit when the reader falls behind)
        var configuration = WebSocketServerConfiguration()
        configuration.limits.maxOutboundBytes = 64 << 20
        let server = try await WebSocketServer.start(configuration)
        let count = 600
        let serverSide = Task { () -> WebSocketConnection in
            let connection = try await firstConnection(server)
            for index in 0..<count { try connection.enqueue(Self.message(index)) }
            return connection
        }

        // When a client reads them
        let client = try await WebSocketConnection.connect(to: server.url + "/batch")
        var received: [WebSocketMessage] = []
        for _ in 0..<count { received.append(try #require(try await nextMessage(client))) }

        // Then each is the message sent at its place
        for index in 0..<count where received[index] != Self.message(index) {
            Issue.record("message \(index) differs (size \(Self.sizes[index % Self.sizes.count]))")
        }
        // and some of them left in batches, the rest (the big ones at least) through lws's own framing
        let batched = try await serverSide.value.core.shared.withLock { $0.batchedMessages }
        #expect(batched > 0)
        #expect(batched < count)
        await client.close()
        await server.shutdown()
    }
}
