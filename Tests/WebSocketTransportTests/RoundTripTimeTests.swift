import TestSupport
import Testing
import WebSocketTransport

/// The server-side round-trip probe (docs/libwebsockets.md#round-trip-probe).
@Suite struct RoundTripTimeTests {
    private static func echo(probeEvery interval: Duration?) async throws -> EchoServer {
        var configuration = WebSocketServerConfiguration()
        configuration.limits.rttProbeInterval = interval
        return try await EchoServer.start(configuration)
    }

    @Test func roundTripTimeAppearsOnAnEchoConnection() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.limits.rttProbeInterval = .milliseconds(100)
        let server = try await WebSocketServer.start(configuration)
        let client = try await WebSocketConnection.connect(to: server.url + "/rtt")
        let accepted = try await firstConnection(server)
        // The echo of the server side, so the connection carries traffic like any other.
        let echo = Task {
            for try await message in accepted.messages { try await accepted.send(message) }
        }
        try await client.send(text: "hello")
        #expect(try await nextMessage(client) == .text("hello"))

        try await waitUntil("a measured round trip") { accepted.roundTripTime != nil }
        let rtt = try #require(accepted.roundTripTime)
        #expect(rtt > .zero)
        #expect(rtt < .seconds(10))
        #expect(client.roundTripTime == nil)  // client connections do not probe
        await client.close()
        _ = try? await echo.value
        await server.shutdown()
    }

    @Test func probesBetweenFragmentedMessagesLeaveThemIntact() async throws {
        let echo = try await Self.echo(probeEvery: .milliseconds(20))
        let client = try await WebSocketConnection.connect(to: echo.url)
        // 200 kB messages go out in 64 KiB fragments; probes come due while they are being written.
        for round in 0..<20 {
            let payload = String(repeating: String(round % 10), count: 200_000)
            try await client.send(text: payload)
            #expect(try await nextMessage(client) == .text(payload))
        }
        await client.close()
        await echo.stop()
    }
}
