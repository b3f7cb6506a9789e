import ArgumentParser
import CLISupport
import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// `room-join --stock-kurento` against TestSupport's stock-behaving server (docs/wire-protocol.md#stock-kurento).
@Suite("room-join --stock-kurento")
struct RoomJoinStockKurentoTests {
    @Test("joins, chats and leaves a stock server; a negative --retries is still refused")
    func joinsAStockServer() async throws {
        let server = try StockKurentoRoomServer()
        defer { server.stop() }
        let result = try await RoomJoinProcess.run([
            server.url, "--room", "r", "--user", "alice", "--stock-kurento", "--message", "hi", "--duration", "0.2",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.runs.withLock { $0 }["joinRoom"] == 1 && server.runs.withLock { $0 }["sendMessage"] == 1)
        #expect(server.runs.withLock { $0 }["leaveRoom"] == 1)

        let refused = try await RoomJoinProcess.run([server.url, "--room", "r", "--user", "bob", "--stock-kurento", "--retries=-1"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--retries must not be negative"))
    }

    @Test("--stock-kurento starts from the profile; --timeout and --retries given still win")
    func theFlagMakesTheProfile() throws {
        let profile = try ConnectionOptions.parse(["--stock-kurento"]).clientConfiguration(tool: "t")
        #expect(profile.requestTimeout == .seconds(15) && profile.retries == 0 && !profile.resendsOnResume)
        let tuned = try ConnectionOptions.parse(["--stock-kurento", "--timeout", "20", "--retries", "2"])
            .clientConfiguration(tool: "t")
        #expect(tuned.requestTimeout == .seconds(20) && tuned.retries == 2 && !tuned.resendsOnResume)
        let plain = try ConnectionOptions.parse([]).clientConfiguration(tool: "t")
        #expect(plain.requestTimeout == .seconds(5) && plain.retries == 1 && plain.resendsOnResume)
    }
}
