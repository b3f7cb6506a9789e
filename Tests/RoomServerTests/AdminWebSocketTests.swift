import JSONRPC
import RoomServer
import Testing
import TestSupport
import WebSocketTransport

/// docs/operations.md#admin-subscription over a real socket: the upgrade to `/admin` needs the admin token.
@Suite struct AdminWebSocketTests {
    /// `ws://127.0.0.1:port` of `server`.
    static func base(_ server: RoomServer) -> String { String(server.url.dropLast("/room".count)) }

    @Test func adminUpgradeIsOffWithoutAConfiguredToken() async throws {
        let server = try await RoomServer.start(.init())
        let port = try #require(RawHTTPClient.port(of: server.url))
        let response = try await RawHTTPClient.get(port: port, "/admin?token=anything", headers: Self.upgradeHeaders)
        #expect(response.status == 404)
        await server.shutdown()
    }

    @Test func adminUpgradeNeedsTheToken() async throws {
        // Given a server with an admin token, and an application authorizer that refuses every Room upgrade
        let server = try await RoomServer.start(.init(
            authorizeUpgrade: { _ in .reject(status: 403, reason: "no rooms today") },
            operations: .init(adminToken: "s3cret", snapshotInterval: .milliseconds(10))))
        let port = try #require(RawHTTPClient.port(of: server.url))

        // Then an upgrade without the token, or with another, gets 401
        for path in ["/admin", "/admin?token=", "/admin?token=s3cre", "/admin?token=s3cret2"] {
            let response = try await RawHTTPClient.get(port: port, path, headers: Self.upgradeHeaders)
            #expect(response.status == 401, "\(path): \(response)")
        }

        // And with it the socket opens (the Room authorizer is not asked), subscribeRooms answers, and a join is sent
        let admin = try await RoomPeer.dialing(Self.base(server) + "/admin?token=s3cret")
        let first = try await admin.result("subscribeRooms")
        #expect(first["rooms"] == [])
        #expect(first["sessionId"] == nil)
        let alice = RoomPeer.connected(to: server)
        try await alice.join("alice", "demo")
        let changed = try await admin.notification("roomsChanged")
        #expect(changed["rooms"]?[0]?["name"] == "demo")
        #expect(changed["rooms"]?[0]?["participants"]?[0]?["name"] == "alice")

        // When the server shuts down, the admin socket closes with 1001
        await server.shutdown()
        #expect(try await admin.end().code == 1001)
    }

    static let upgradeHeaders = [
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    ]
}
