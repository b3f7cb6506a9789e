import JSONRPC
import JSONRPCWebSocket
import RoomServer
import TestSupport
import Testing

/// docs/operations.md#admin-subscription over a real socket: the upgrade to `/admin` needs the admin token
/// (`Authorization: Bearer`; the dashboard's session cookie in AdminLoginTests).
@Suite struct AdminWebSocketTests {
    /// `ws://127.0.0.1:port` of `server`.
    static func base(_ server: RoomServer) -> String { String(server.url.dropLast("/room".count)) }

    @Test func adminUpgradeIsOffWithoutAConfiguredToken() async throws {
        let server = try await RoomServer.start(.init())
        let port = try #require(RawHTTPClient.port(of: server.url))
        var headers = Self.upgradeHeaders
        headers["Authorization"] = "Bearer anything-anything-anything"
        let response = try await RawHTTPClient.get(port: port, "/admin", headers: headers)
        #expect(response.status == 404)
        await server.shutdown()
    }

    @Test func adminUpgradeNeedsTheToken() async throws {
        // Given a server with an admin token, and an application authorizer that refuses every Room upgrade
        let server = try await RoomServer.start(.init(
            authorizeUpgrade: { _ in .reject(status: 403, reason: "no rooms today") },
            operations: .init(adminToken: Self.token, snapshotInterval: .milliseconds(10))))
        let port = try #require(RawHTTPClient.port(of: server.url))

        // Then an upgrade without the token, with another, or with it in the query, gets 401
        for (path, authorization) in [("/admin", nil), ("/admin", "Bearer " + Self.token.dropLast()),
                                      ("/admin", "Bearer \(Self.token)2"), ("/admin?token=\(Self.token)", nil)] as [(String, String?)] {
            var headers = Self.upgradeHeaders
            headers["Authorization"] = authorization
            let response = try await RawHTTPClient.get(port: port, path, headers: headers)
            #expect(response.status == 401, "\(path) \(authorization ?? ""): \(response)")
        }

        // And with it the socket opens (the Room authorizer is not asked), subscribeRooms answers, and a join is sent
        var configuration = WebSocketClientConfiguration()
        configuration.headers = [("Authorization", "Bearer " + Self.token)]
        let admin = try await RoomPeer.dialing(Self.base(server) + "/admin", configuration: configuration)
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

    static let token = "s3cret-0123456789abcdef"

    static let upgradeHeaders = [
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    ]
}
