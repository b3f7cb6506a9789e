import JSONRPCWebSocket
import RoomServer
import TestSupport
import Testing

/// `room-join` against a server that refuses its token: one line that says so, exit 4 (README, Exit codes), and one
/// upgrade at the server.
@Suite struct RoomJoinAuthCLITests {
    @Test(arguments: [true, false])
    func aRefusedTokenExitsFourAfterOneUpgrade(beforeHandshake: Bool) async throws {
        // Given a server that refuses every token but "good"
        let upgrades = Counter()
        let decide: @Sendable (UpgradeRequest) -> UpgradeDecision = { request in
            upgrades.increment()
            return request.bearerToken == "good" ? .accept : .reject(status: 401, reason: "unauthorized")
        }
        let server = try await RoomServer.start(beforeHandshake
            ? .init(upgradeFilter: decide) : .init(authorizeUpgrade: { decide($0) }))

        // When room-join dials it with a bad token
        let result = try await RoomJoinProcess.run([server.url, "--room", "room1", "--user", "alice", "--token", "bad"])

        // Then it says the server refused the connection as unauthorized, exits 4, and dialed once
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("refused the connection"), "\(result.stderr)")
        #expect(result.stderr.contains("unauthorized"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(upgrades.count == 1)
        #expect(server.rooms.isEmpty)
        await server.shutdown()
    }
}
