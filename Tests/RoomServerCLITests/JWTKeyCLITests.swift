import Foundation
import JSONRPC
import RoomClient
import RoomProtocol
import RoomServerJWT
import TestSupport
import Testing

/// `room-server --jwt-key FILE`: room access tokens signed with the file's key join the room they name; anything else
/// is refused, for good.
@Suite struct JWTKeyCLITests {
    @Test func aTokenSignedWithTheKeyFileJoinsItsRoomAndAnyOtherIsRefused() async throws {
        // Given room-server with a key file
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("jwt-key-\(UUID().uuidString)").path
        try Data("5f2b9c0e7a14d6e3b8c1f0a29d4e7b6c\n".utf8).write(to: URL(fileURLWithPath: keyFile))
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        let server = try await RoomServerProcess.start(["--jwt-key", keyFile])
        let tokens = try await RoomTokenAuthorizer(keyFile: keyFile)
        let token = try await tokens.token(for: .init(user: "alice", room: "room1", expires: Date().addingTimeInterval(600)))

        // When alice joins with her token, and mallory without one and with a made-up one
        let (alice, _) = try await joined("alice", at: server.url, configuration: .init(authToken: token, reconnect: .off))
        for forged in [nil, "forged-token"] as [String?] {
            let mallory = RoomClient(room: Room(username: "mallory", roomName: "room1", url: server.url),
                                     configuration: .init(authToken: forged, reconnect: .off))
            let error = await #expect(throws: RPCError.self) { try await mallory.connect() }
            #expect(error?.isAuthorizationRefusal == true, "\(String(describing: error))")
        }

        // And mallory with alice's own token
        let impostor = RoomClient(room: Room(username: "mallory", roomName: "room1", url: server.url),
                                  configuration: .init(authToken: token, reconnect: .off))
        let refusal = await #expect(throws: RoomError.self) { try await impostor.join() }
        #expect(refusal?.message == "forbidden: the access token is for user 'alice', not 'mallory'")
        await impostor.disconnect()

        // Then alice is in, and the help names the option
        #expect(alice.isJoined)
        await alice.disconnect()
        server.child.send(SIGINT)
        #expect(try await server.child.exitStatus() == 0)
        let help = try ChildProcess("room-server", ["--help"])
        #expect(try await help.exitStatus() == 0)
        #expect(await help.remainingLines().joined(separator: " ").contains("--jwt-key"))
    }

    @Test func aKeyFileThatCannotBeUsedExitsOne() async throws {
        let child = try ChildProcess("room-server", ["--port", "0", "--jwt-key", "/nonexistent/jwt-key"])
        #expect(try await child.exitStatus() == 1)
        #expect(await child.stderr.contains("--jwt-key"))
    }
}
