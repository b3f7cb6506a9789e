import Foundation
import SignalingSupport
import TestSupport
import Testing
@testable import WebSocketTransport

/// One message queued to many connections is held once and copied into the loop's scratch buffer only at write
/// time (docs/libwebsockets.md#writes): every recipient must still get it intact, whatever lws does to the bytes it
/// is handed (a client's payload is masked in place), and a connection's messages keep their order.
@Suite struct SharedMessageTests {
    /// A message and the frame size both ends use.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var message: WebSocketMessage
        var maxFrameSize = 64 << 10
        var description: String { name }
    }

    /// Text with multi-byte characters, `count` UTF-8 bytes or a few more.
    static func text(_ count: Int) -> String {
        var s = ""
        var index = 0
        while s.utf8.count < count {
            s += index % 7 == 0 ? "é" : index % 11 == 0 ? "✓" : String(UnicodeScalar(UInt8(97 + index % 26)))
            index += 1
        }
        return s
    }

    /// Bytes that tell their positions apart.
    static func bytes(_ count: Int, seed: Int = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) })
    }

    static let cases: [Case] = [
        Case(name: "small text", message: .text(text(300))),
        Case(name: "small binary", message: .binary(bytes(300))),
        Case(name: "empty text", message: .text("")),
        Case(name: "text above the batch limit", message: .text(text(200_000))),
        Case(name: "binary above the batch limit", message: .binary(bytes(200_000))),
        Case(name: "fragmented text", message: .text(text(10_000)), maxFrameSize: 1000),
        // A slice: its bytes do not start at index 0 of its storage.
        Case(name: "fragmented binary slice", message: .binary(bytes(10_100)[100...]), maxFrameSize: 1000),
    ]

    @Test(arguments: cases)
    func oneMessageSentToManyConnectionsArrivesIntactAtEach(_ sample: Case) async throws {
        // Given a server and 8 clients on one loop (so one scratch buffer), every end fragmenting at the case's size
        var configuration = WebSocketServerConfiguration()
        configuration.limits.maxFrameSize = sample.maxFrameSize
        let server = try await WebSocketServer.start(configuration)
        var clientConfiguration = WebSocketClientConfiguration()
        clientConfiguration.limits.maxFrameSize = sample.maxFrameSize
        let count = 8
        let accepting = Task { try await acceptedConnections(server, count: count) }
        var clients: [WebSocketConnection] = []
        for _ in 0..<count {
            clients.append(try await WebSocketConnection.connect(to: server.url + "/shared", configuration: clientConfiguration))
        }
        let accepted = try await accepting.value

        // When the server queues the same message twice to every connection, and every client sends it (masked)
        // to the server twice
        for connection in accepted {
            try connection.enqueue(sample.message)
            try connection.enqueue(sample.message)
        }
        for client in clients {
            try client.enqueue(sample.message)
            try client.enqueue(sample.message)
        }

        // Then every end receives it twice, byte for byte
        for (index, client) in clients.enumerated() {
            for copy in 0..<2 {
                let received = try #require(try await nextMessage(client))
                #expect(received == sample.message, "client \(index), copy \(copy)")
            }
        }
        for (index, connection) in accepted.enumerated() {
            for copy in 0..<2 {
                let received = try #require(try await nextMessage(connection))
                #expect(received == sample.message, "server connection \(index), copy \(copy)")
            }
        }
        for client in clients { await client.close() }
        await server.shutdown()
    }

    /// Sizes that are batched (small), fragmented (above the server's 4 KiB frames) and above the batch limit.
    static let orderSizes = [5, 70, 5000, 130, 0, 70_000, 12, 1, 300]

    /// Broadcast message `index`, text and binary in turn.
    static func shared(_ index: Int) -> WebSocketMessage {
        let size = orderSizes[index % orderSizes.count]
        return index % 2 == 0 ? .text(text(size) + "#\(index)") : .binary(bytes(size, seed: index))
    }

    @Test func messagesQueuedToOneConnectionKeepTheirOrderThroughBatches() async throws {
        // Given a server fragmenting at 4 KiB and 4 clients
        var configuration = WebSocketServerConfiguration()
        configuration.limits.maxFrameSize = 4096
        configuration.limits.maxOutboundBytes = 64 << 20
        let server = try await WebSocketServer.start(configuration)
        let count = 4
        let rounds = 200
        let accepting = Task { try await acceptedConnections(server, count: count) }
        var clients: [WebSocketConnection] = []
        for _ in 0..<count { clients.append(try await WebSocketConnection.connect(to: server.url + "/order")) }
        let accepted = try await accepting.value

        // When, round after round, the server queues one shared message to every connection and one of each
        // connection's own, and every client queues the shared messages to the server
        for round in 0..<rounds {
            let message = Self.shared(round)
            for (index, connection) in accepted.enumerated() {
                try connection.enqueue(message)
                try connection.enqueue(.text("own \(index) \(round)"))
            }
            for client in clients { try client.enqueue(message) }
        }

        // Then each client reads them in the order they were queued
        for client in clients {
            var owner: String?
            for round in 0..<rounds {
                let received = try #require(try await nextMessage(client))
                #expect(received == Self.shared(round), "shared message \(round)")
                guard case .text(let own)? = try await nextMessage(client) else {
                    Issue.record("own message \(round) missing")
                    break
                }
                let parts = own.split(separator: " ")
                owner = owner ?? String(parts[1])
                #expect(parts.count == 3 && parts[1] == owner![...] && parts[2] == "\(round)"[...], "own message \(round): \(own)")
            }
        }
        // and so does the server, from each client
        for connection in accepted {
            for round in 0..<rounds {
                let received = try #require(try await nextMessage(connection))
                #expect(received == Self.shared(round), "message \(round) from a client")
            }
        }
        // and some left in batches
        let batched = accepted.reduce(0) { sum, connection in sum + connection.core.shared.withLock { $0.batchedMessages } }
        #expect(batched > 0)
        for client in clients { await client.close() }
        await server.shutdown()
    }

    @Test func aPayloadRangeIsCopiedFromTheStringTheDataOrByteByByte() {
        // Given text with multi-byte characters and a data slice
        let text = Self.text(1000)
        let expected = Array(text.utf8)
        let slice = Self.bytes(1100)[100...]

        // When a middle range of each is copied out: through the string's storage, through the bytes of a string
        // without contiguous storage (the fallback), and from the data
        var fromStorage = [UInt8](repeating: 0, count: 300)
        fromStorage.withUnsafeMutableBufferPointer { WebSocketMessage.text(text).copyPayload(from: 123, count: 300, to: $0.baseAddress!) }
        var byteByByte = [UInt8](repeating: 0, count: 300)
        byteByByte.withUnsafeMutableBufferPointer { WebSocketMessage.copyBytes(of: text.utf8, from: 123, count: 300, to: $0.baseAddress!) }
        var fromData = [UInt8](repeating: 0, count: 300)
        fromData.withUnsafeMutableBufferPointer { WebSocketMessage.binary(slice).copyPayload(from: 123, count: 300, to: $0.baseAddress!) }

        // Then each is those bytes
        #expect(fromStorage == Array(expected[123..<423]))
        #expect(byteByByte == Array(expected[123..<423]))
        #expect(fromData == Array(slice.dropFirst(123).prefix(300)))
    }
}

/// The first `count` connections a server accepts, within `limit`.
func acceptedConnections(_ server: WebSocketServer, count: Int, limit: Duration = .seconds(10)) async throws -> [WebSocketConnection] {
    try await withDeadline(limit, "\(count) accepted connections") {
        var accepted: [WebSocketConnection] = []
        for await connection in server.connections {
            accepted.append(connection)
            if accepted.count == count { return accepted }
        }
        throw DeadlineExceeded(what: "server ended", timeout: .zero)
    }
}
