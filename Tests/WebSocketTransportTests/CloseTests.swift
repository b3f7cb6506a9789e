import Foundation
import TestSupport
import Testing
import WebSocketTransport

@Suite struct CloseTests {
    @Test func clientCloseCodeAndReasonReachTheServer() async throws {
        let server = try await WebSocketServer.start()
        let client = try await WebSocketConnection.connect(to: server.url + "/x")
        let accepted = try await firstConnection(server)

        await client.close(code: WebSocketCloseCode(rawValue: 4000), reason: "bye from client")

        let seen = try await closeInfo(accepted)
        #expect(seen.code.rawValue == 4000)
        #expect(seen.reason == "bye from client")
        #expect(seen.initiatedLocally == false)
        let own = try await closeInfo(client)
        #expect(own.code.rawValue == 4000 && own.initiatedLocally)
        await server.shutdown()
    }

    @Test func serverCloseCodeAndReasonReachTheClient() async throws {
        let server = try await WebSocketServer.start()
        let client = try await WebSocketConnection.connect(to: server.url + "/x")
        let accepted = try await firstConnection(server)

        await accepted.close(code: WebSocketCloseCode(rawValue: 4409), reason: "taken over")

        let seen = try await closeInfo(client)
        #expect(seen.code.rawValue == 4409)
        #expect(seen.reason == "taken over")
        // The inbound sequence reports a non-normal close as an error carrying the code.
        await #expect(throws: TransportError.closed(seen)) {
            var it = client.messages.makeAsyncIterator()
            _ = try await it.next()
        }
        await #expect(throws: TransportError.self) { try await client.send(text: "late") }
        await server.shutdown()
    }

    @Test func messageAboveTheLimitClosesWith1009() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.limits.maxMessageSize = 1 << 20
        let server = try await WebSocketServer.start(configuration)
        let client = try await WebSocketConnection.connect(to: server.url + "/x")
        let accepted = try await firstConnection(server)

        try await client.send(.binary(Data(count: 1 << 20)))  // exactly the limit: accepted
        #expect(try await nextMessage(accepted)?.byteCount == 1 << 20)
        try await client.send(.binary(Data(count: (1 << 20) + 1)))  // one byte more: 1009

        let seen = try await closeInfo(client)
        #expect(seen.code == .messageTooBig)
        #expect(try await closeInfo(accepted).code == .messageTooBig)
        await server.shutdown()
    }

    @Test func unicodeTextPassesUntouched() async throws {
        let server = try await WebSocketServer.start()
        let client = try await WebSocketConnection.connect(to: server.url + "/x")
        let accepted = try await firstConnection(server)
        try await client.send(text: "ünïcødé ✓")
        #expect(try await nextMessage(accepted) == .text("ünïcødé ✓"))
        await client.close()
        await server.shutdown()
    }

    @Test func serverShutdownClosesConnectionsWith1001() async throws {
        let server = try await WebSocketServer.start()
        let client = try await WebSocketConnection.connect(to: server.url + "/x")
        let accepted = try await firstConnection(server)  // held: a dropped handle closes with 1000
        await server.shutdown()
        #expect(try await closeInfo(accepted).code == .goingAway)
        let info = try await closeInfo(client)
        #expect(info.code == .goingAway, "\(info)")
        await #expect(throws: TransportError.self) { _ = try await WebSocketConnection.connect(to: server.url + "/x") }
    }
}
