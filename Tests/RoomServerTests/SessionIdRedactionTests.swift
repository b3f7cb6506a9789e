import JSONRPC
import RoomClient
import RoomProtocol
import RoomServer
import TestSupport
import Testing

/// Session ids are bearer credentials (docs/architecture.md#identity): no error's description shows one in full.
@Suite struct SessionIdRedactionTests {
    static let sessionId = "68b66a61c0ffee00d15ea5e0ba5eba11"

    @Test func anErrorObjectsDescriptionShowsItsSessionIdOnlyRedacted() {
        let object = RPCErrorObject(code: 400, message: "unknown customRequest type",
                                    data: ["sessionId": .string(Self.sessionId), "nested": ["sessionId": .string(Self.sessionId)]])
        for text in ["\(object)", "\(RPCError.remote(object))", "\(RoomError(.userGeneric, message: "m", data: object.data))"] {
            #expect(!text.contains(Self.sessionId), "\(text)")
        }
        #expect("\(object)".contains("68b66a…"), "\(object)")
    }

    @Test func aCustomRequestRefusedByTheServerDoesNotShowTheClientsSessionId() async throws {
        // Given a server whose customRequest hook refuses every request
        let server = try await RoomServer.start(.init(customRequest: { _ in
            throw RPCErrorObject(code: 400, message: "unknown customRequest type")
        }))
        let client = RoomClient(room: Room(username: "alice", roomName: "room1", url: server.url))
        try await client.join()
        let sessionId = try #require(client.jsonRPCClient.sessionId)

        // When a customRequest is refused
        let error = await #expect(throws: (any Error).self) { _ = try await client.customRequest(["type": "nope"]) }

        // Then its description names the error, and the session only redacted
        let text = "\(try #require(error))"
        #expect(text.contains("unknown customRequest type"), "\(text)")
        #expect(!text.contains(sessionId), "\(text)")
        await client.disconnect()
        await server.shutdown()
    }
}
