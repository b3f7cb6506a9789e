import JSONRPC
import JSONRPCWebSocket
import RoomClient
import RoomServer
import TestSupport
import Testing

/// An auth refusal is final on the client (docs/architecture.md#identity): one upgrade reaches the server, `connect()`
/// and every call after it fail with the typed error, and nothing dials again.
@Suite struct AuthRefusalTests {
    /// A server whose upgrades are counted and refused with `status`: before the handshake by the synchronous
    /// filter (HTTP `status`), or after it by the asynchronous authorizer (close 4000 + `status`).
    struct RefusingServer {
        let server: RoomServer
        let upgrades = Counter()

        init(status: Int, beforeHandshake: Bool) async throws {
            let upgrades = upgrades
            let decision = UpgradeDecision.reject(status: status, reason: status == 401 ? "unauthorized" : "forbidden")
            server = try await RoomServer.start(beforeHandshake
                ? .init(upgradeFilter: { _ in upgrades.increment(); return decision })
                : .init(authorizeUpgrade: { _ in upgrades.increment(); return decision }))
        }
    }

    static let patient = RoomClient.Configuration(requestTimeout: .seconds(120), retries: 0, authToken: "bad-token")

    static func expected(_ status: Int, beforeHandshake: Bool) -> RPCError {
        let end = beforeHandshake
            ? ConnectionEnd(code: UInt16(4000 + status), reason: "the server refused the upgrade with HTTP \(status)")
            : ConnectionEnd(code: UInt16(4000 + status), reason: status == 401 ? "unauthorized" : "forbidden")
        return status == 401 ? .unauthorized(end) : .forbidden(end)
    }

    @Test(arguments: [(401, true), (401, false), (403, true), (403, false)])
    func aRoomClientsConnectFailsOnceWithTheTypedRefusalAndNeverDialsAgain(status: Int, beforeHandshake: Bool)
        async throws
    {
        // Given a server that refuses every upgrade
        let refusing = try await RefusingServer(status: status, beforeHandshake: beforeHandshake)
        let client = RoomClient(room: Room(username: "alice", roomName: "room1", url: refusing.server.url),
                                configuration: Self.patient)
        let expected = Self.expected(status, beforeHandshake: beforeHandshake)

        // When the client connects, then joins, then connects again
        await #expect(throws: expected) { try await withDeadline(.seconds(20), "connect") { try await client.connect() } }
        await #expect(throws: expected) { try await withDeadline(.seconds(20), "join") { try await client.join() } }
        await #expect(throws: expected) { try await client.connect() }

        // Then one upgrade reached the server, and the client stays disconnected with the refusal
        #expect(refusing.upgrades.count == 1)
        #expect(client.connectionState == .disconnected(expected.connectionEnd))
        #expect(refusing.server.rooms.isEmpty)
        await refusing.server.shutdown()
    }

    @Test(arguments: [true, false])
    func aRawClientsFirstCallFailsWithUnauthorizedOnceAndTheNextDoesNotRedial(beforeHandshake: Bool) async throws {
        // Given a server that refuses every upgrade, and a plain JSON-RPC client that connects by itself
        let refusing = try await RefusingServer(status: 401, beforeHandshake: beforeHandshake)
        let client = JSONRPCClient(url: refusing.server.url, configuration: .init(requestTimeout: .seconds(120), retries: 0),
                                   webSocket: WebSocketClientConfiguration().authorized(by: "bad-token"))
        let expected = Self.expected(401, beforeHandshake: beforeHandshake)

        // When it calls twice
        await #expect(throws: expected) {
            try await withDeadline(.seconds(20), "the first call") {
                _ = try await client.call("joinRoom", params: ["user": "alice", "room": "room1"])
            }
        }
        await #expect(throws: expected) { _ = try await client.call("joinRoom", params: ["user": "alice", "room": "room1"]) }

        // Then the second call failed without dialing: one upgrade in all
        #expect(refusing.upgrades.count == 1)
        #expect(refusing.server.rooms.isEmpty)
        await refusing.server.shutdown()
    }

    @Test func theServersOwnChecksRunBeforeTheEmbeddersFilter() async throws {
        // Given an embedder's filter that accepts everything, and a per-address cap of one connection
        let filtered = Counter()
        let server = try await RoomServer.start(.init(limits: .init(maxConnectionsPerIP: 1), upgradeFilter: { _ in
            filtered.increment()
            return .accept
        }))

        // When a client connects to an unknown path, then two to /room
        await #expect(throws: TransportError.self) { _ = try await WebSocketConnection.connect(to: server.url + "/nowhere") }
        let first = try await WebSocketConnection.connect(to: server.url)
        await #expect(throws: TransportError.self) { _ = try await WebSocketConnection.connect(to: server.url) }

        // Then the filter saw only the upgrade the server itself let through
        #expect(filtered.count == 1)
        await first.close()
        await server.shutdown()
    }
}
