import JSONRPC
import RoomClient
import RoomProtocol
import RoomServer
import Testing
import TestSupport

/// `customRequest` with Codable types on both ends (issue 34, item 6): ``RoomClient/customRequest(_:as:)`` against
/// a ``RoomServer`` whose hook is ``RoomCustomRequest/handler(_:)``, over a real socket.
@Suite struct TypedCustomRequestTests {
    struct Ping: Codable, Sendable { var text: String }
    struct Pong: Codable, Sendable, Equatable { var text: String; var user: String? }

    @Test func typedParamsAndResultOnBothEnds() async throws {
        let server = try await RoomServer.start(.init(customRequest: RoomCustomRequest.handler { (ping: Ping, request) in
            ping.text == "ping" ? Pong(text: "pong", user: request.user) : Pong(text: "?", user: nil)
        }))
        let client = RoomClient(room: Room(username: "alice", roomName: "typed", url: server.url))
        try await withDeadline(.seconds(20), "typed customRequests") {
            try await client.join()
            // A typed round trip: the server's handler sees the caller's user
            #expect(try await client.customRequest(Ping(text: "ping"), as: Pong.self) == Pong(text: "pong", user: "alice"))
            // Params that do not decode on the server: -32602 (invalid params)
            let refused = await #expect(throws: RPCError.self) {
                try await client.customRequest(["unexpected": 1] as [String: Int], as: Pong.self)
            }
            #expect(refused?.remoteError?.code == -32602)
            // A result that does not decode as asked: invalidResponse
            await #expect(throws: RPCError.self) { try await client.customRequest(Ping(text: "ping"), as: [Int].self) }
            // The untyped call still works on the same hook
            #expect(try await client.customRequest(["text": "ping"])["text"] == "pong")
            try await client.leave()
        }
        await client.disconnect()
        await server.shutdown()
    }

    @Test func anEmptyResultNeedsNoTypeOfOurOwn() async throws {
        let server = try await RoomServer.start(.init(customRequest: RoomCustomRequest.handler { (_: Ping, _) in
            EmptyResult()
        }))
        let client = RoomClient(room: Room(username: "bob", roomName: "typed", url: server.url))
        try await withDeadline(.seconds(20), "an empty customRequest") {
            try await client.join()
            #expect(try await client.customRequest(Ping(text: "x"), as: EmptyResult.self) == EmptyResult())
            try await client.leave()
        }
        await client.disconnect()
        await server.shutdown()
    }
}
