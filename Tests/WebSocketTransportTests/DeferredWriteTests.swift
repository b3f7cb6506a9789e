import Foundation
import SignalingSupport
import TestSupport
import Testing
@testable import WebSocketTransport

/// Frames queued while a connection can take them go out at the end of the loop's turn, without a `WRITEABLE`
/// callback (docs/libwebsockets.md#writes): each of those cost two `epoll_ctl` and a turn of the loop.
@Suite struct DeferredWriteTests {
    @Test func anEchoExchangeWritesEveryFrameWithoutAWriteableCallback() async throws {
        // Given a client connected to a server that echoes every message
        let server = try await WebSocketServer.start(WebSocketServerConfiguration())
        let client = try await WebSocketConnection.connect(to: server.url + "/echo")
        let serverSide = try await firstConnection(server)
        let echo = Task { for try await message in serverSide.messages { try await serverSide.send(message) } }
        // (lws may call WRITEABLE on its own once a handshake is done: one echo first lets that pass)
        try await client.send(.text("warm-up"))
        #expect(try await nextMessage(client) == .text("warm-up"))
        let before = (client: try await Self.writeableCallbacks(of: client),
                      server: try await Self.writeableCallbacks(of: serverSide))

        // When the client sends 50 messages, one at a time, each echoed before the next
        for index in 0..<50 {
            try await client.send(.text("message \(index)"))
            #expect(try await nextMessage(client) == .text("message \(index)"))
        }

        // Then neither side needed a WRITEABLE callback to write them
        let clientCallbacks = try await Self.writeableCallbacks(of: client) - before.client
        let serverCallbacks = try await Self.writeableCallbacks(of: serverSide) - before.server
        #expect(clientCallbacks == 0)
        #expect(serverCallbacks == 0)
        await client.close()
        _ = await echo.result
        await server.shutdown()
    }

    @Test func aTaskThatKeepsSendingOnTheLoopDoesNotStarveItsOtherSockets() async throws {
        // Given a loop whose executor runs a task that sends 200,000 messages one at a time, each awaited (every
        // write's report resumes it, and it queues the next write in the same turn of the loop), and a reader
        // draining them
        let loop = try WebSocketEventLoop()
        let server = try await WebSocketServer.start(loop: loop)
        var accepted = server.connections.makeAsyncIterator()
        let flooded = try await WebSocketConnection.connect(to: server.url + "/flood", loop: loop)
        let flooding = try #require(await accepted.next())
        let other = try await WebSocketConnection.connect(to: server.url + "/echo", loop: loop)
        let echoing = try #require(await accepted.next())
        let drain = Task { for try await _ in flooded.messages {} }
        let sends = Counter()
        let sender = Task(executorPreference: loop.executor) {
            for _ in 0..<200_000 {
                try Task.checkCancellation()
                try await flooding.send(.text("x"))
                sends.increment()
            }
        }

        // When a message is echoed on another connection meanwhile
        try await echoPing(from: other, via: echoing, while: "the sender runs")

        // Then the echo came back while the sender was still sending: one turn of the loop wrote a few of its
        // messages and left the rest to later turns
        #expect(sends.count < 200_000)
        sender.cancel()
        _ = await sender.result
        await flooded.close()
        _ = await drain.result
        await other.close()
        await loop.shutdown()
    }

    /// How many WRITEABLE callbacks lws made for `connection`, read on its service thread.
    static func writeableCallbacks(of connection: WebSocketConnection) async throws -> Int {
        let core = connection.core
        return try await core.loop.onServiceThread { _ in core.writeableCallbacks }
    }
}
