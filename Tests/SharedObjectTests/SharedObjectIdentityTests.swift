import JSONRPC
import JSONRPCWebSocket
import RoomClient
import RoomServer
import SharedObjects
import TestSupport
import Testing

/// Issue 30 item 13 on a RoomServer: a `room:` name's scope is unambiguous also for rooms whose names contain `/`,
/// and every update and message carries the sender the server knows, never one from the payload.
@Suite struct SharedObjectIdentityTests {
    /// A member of `room` on `url`: its room client, joined.
    static func member(_ user: String, of room: String, at url: String) async throws -> RoomClient {
        let client = RoomClient(room: Room(username: user, roomName: room, url: url))
        try await client.connect()
        try await client.join()
        return client
    }

    /// The error code of a raw call that must fail, `nil` when it succeeded.
    static func code(_ client: JSONRPCClient, _ method: String, _ params: JSONValue) async -> Int? {
        await remoteCode { _ = try await client.call(method, params: params) }
    }

    /// The params of the next notification named `method` on `notifications`.
    static func next(_ method: String, on notifications: Broadcast<RPCNotification>.Subscription) async throws -> JSONValue? {
        try await withDeadline(.seconds(10), "a \(method)") {
            try await notifications.first { $0.method == method }?.params
        }
    }

    @Test func aRoomWhoseNameHasASlashHasObjectsOfItsOwn() async throws {
        // Given ann in room "team" and sam in room "team/secret"
        let server = try await RoomServer.start(.init())
        let ann = try await Self.member("ann", of: "team", at: server.url)
        let sam = try await Self.member("sam", of: "team/secret", at: server.url)
        let annRPC = ann.jsonRPCClient, samRPC = sam.jsonRPCClient

        // When ann opens room:team/secret/notes (team's object "secret/notes") and writes to it
        #expect(await Self.code(annRPC, "sharedObject.connect", ["name": "room:team/secret/notes"]) == nil)
        #expect(await Self.code(annRPC, "sharedObject.set", ["name": "room:team/secret/notes", "properties": ["x": 1]]) == nil)

        // Then sam cannot open it (it is team's), and opens team/secret's own with the room's '/' escaped as %2F
        #expect(await Self.code(samRPC, "sharedObject.connect", ["name": "room:team/secret/notes"]) == 1102)
        let secret = try await samRPC.call("sharedObject.connect", params: ["name": "room:team%2Fsecret/notes"])
        #expect(secret["data"] == [:])
        // and ann cannot open that one
        #expect(await Self.code(annRPC, "sharedObject.connect", ["name": "room:team%2Fsecret/notes"]) == 1102)
        // and an escape other than %2F and %25 is bad params
        #expect(await Self.code(samRPC, "sharedObject.connect", ["name": "room:team%2fsecret/notes"]) == -32602)
        #expect(await Self.code(samRPC, "sharedObject.connect", ["name": "room:team%zz/notes"]) == -32602)

        await ann.disconnect()
        await sam.disconnect()
        await server.shutdown()
    }

    @Test func updatesAndMessagesCarryTheSenderTheServerKnows() async throws {
        // Given alice and bob in room demo on one object of the room, and bob listening
        let server = try await RoomServer.start(.init())
        let alice = try await Self.member("alice", of: "demo", at: server.url)
        let bob = try await Self.member("bob", of: "demo", at: server.url)
        let heard = bob.jsonRPCClient.notifications
        _ = try await alice.jsonRPCClient.call("sharedObject.connect", params: ["name": "room:demo/board"])
        _ = try await bob.jsonRPCClient.call("sharedObject.connect", params: ["name": "room:demo/board"])

        // When alice sets a key, and sends a message whose params claim to come from mallory
        _ = try await alice.jsonRPCClient.call("sharedObject.set", params: [
            "name": "room:demo/board", "properties": ["color": "red"], "sender": ["user": "mallory", "room": "demo"],
        ])
        _ = try await alice.jsonRPCClient.call("sharedObject.send", params: [
            "name": "room:demo/board", "method": "wave", "params": ["from": "mallory"],
            "sender": ["user": "mallory", "room": "demo"],
        ])

        // Then bob hears both from alice of room demo, whatever the params said
        let update = try await Self.next("sharedObject.update", on: heard)
        #expect(update?["sender"] == ["user": "alice", "room": "demo"], "\(String(describing: update))")
        let message = try await Self.next("sharedObject.message", on: heard)
        #expect(message?["sender"] == ["user": "alice", "room": "demo"], "\(String(describing: message))")
        #expect(message?["params"] == ["from": "mallory"])

        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }

    @Test func aSessionThatJoinedNoRoomIsAnAnonymousIdThatIsNotItsSessionId() async throws {
        // Given two sessions that joined no room on one server-wide object
        let server = try await RoomServer.start(.init())
        let stranger = JSONRPCClient(url: server.url), listener = JSONRPCClient(url: server.url)
        let heard = listener.notifications
        _ = try await stranger.call("sharedObject.connect", params: ["name": "lobby"])
        _ = try await listener.call("sharedObject.connect", params: ["name": "lobby"])

        // When the stranger sets a key and sends a message
        _ = try await stranger.call("sharedObject.set", params: ["name": "lobby", "properties": ["n": 1]])
        _ = try await stranger.call("sharedObject.send", params: ["name": "lobby", "method": "hello"])

        // Then both carry the same anonymous id, which is not the stranger's session id
        let update = try await Self.next("sharedObject.update", on: heard)
        let message = try await Self.next("sharedObject.message", on: heard)
        let id = try #require(update?["sender"]?["anonymous"]?.stringValue, "\(String(describing: update))")
        #expect(message?["sender"] == ["anonymous": .string(id)])
        #expect(update?["sender"]?.objectValue?.count == 1)
        let sessionId = try #require(stranger.sessionId)
        #expect(id != sessionId && !sessionId.contains(id) && !id.contains(sessionId))

        await stranger.close()
        await listener.close()
        await server.shutdown()
    }
}
