import Foundation
import SignalingSupport
import TestSupport
import Testing
import WebSocketTransport

@Suite struct FlowControlTests {
    @Test func fastSenderIsHeldBackWithBoundedMemoryAndNothingLost() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.limits.inboundHighWatermark = 256 << 10
        configuration.limits.inboundLowWatermark = 64 << 10
        let server = try await WebSocketServer.start(configuration)
        let client = try await WebSocketConnection.connect(to: server.url + "/flow")
        let receiver = try await firstConnection(server)
        let count = 2000, size = 16 << 10  // 32 MiB: far more than the kernel's loopback buffers hold
        let sent = LockedValue(0)
        let sender = Task {
            for i in 0..<count {
                var payload = Data(count: size)
                withUnsafeBytes(of: UInt32(i).bigEndian) { payload.replaceSubrange(0..<4, with: $0) }
                try await client.send(.binary(payload))
                sent.withLock { $0 += 1 }
            }
        }

        // Given a receiver that has not read anything, reading pauses at the high watermark…
        try await waitUntil("reading paused") { receiver.inboundFlow.isReadingPaused }
        // …and the sender is held back: it cannot have pushed everything into the kernel.
        #expect(sent.withLock { $0 } < count)

        // When the receiver drains, every message arrives, in order, and memory stayed bounded.
        for expected in 0..<count {
            let message = try await nextMessage(receiver)
            guard case .binary(let data)? = message else { Issue.record("message \(expected) missing"); break }
            let index = data.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(Int(index) == expected && data.count == size)
            if Int(index) != expected { break }
        }
        try await sender.value
        let flow = receiver.inboundFlow
        #expect(flow.pauses >= 1)
        #expect(flow.peakBufferedBytes <= (256 << 10) + 2 * size + 65_536)
        await client.close()
        await server.shutdown()
    }

    @Test func slowConsumerOnTheServerIsClosedWith1008() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.limits.maxOutboundBytes = 1 << 20
        let server = try await WebSocketServer.start(configuration)
        var clientConfiguration = WebSocketClientConfiguration()
        clientConfiguration.limits.inboundHighWatermark = 32 << 10  // the client reads almost nothing
        clientConfiguration.limits.inboundLowWatermark = 16 << 10
        let client = try await WebSocketConnection.connect(to: server.url + "/slow", configuration: clientConfiguration)
        let accepted = try await firstConnection(server)

        // A broadcast-style producer never waits; the queue grows until the limit closes the connection.
        let chunk = WebSocketMessage.binary(Data(count: 64 << 10))
        var enqueued = 0
        while enqueued < 10_000 {
            do { try accepted.enqueue(chunk) } catch { break }
            enqueued += 1
            if enqueued % 64 == 0 { await Task.yield() }
        }
        let info = try await closeInfo(accepted)
        #expect(info.code == .policyViolation)
        #expect(info.initiatedLocally)
        #expect(info.reason.contains("slow consumer"))
        #expect(enqueued < 10_000, "the connection must close long before 640 MiB are queued")
        await client.close(code: .normal, reason: "")
        await server.shutdown()
    }
}
