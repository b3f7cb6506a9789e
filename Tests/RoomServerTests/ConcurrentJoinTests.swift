import JSONRPC
import RoomServer
import Testing
import TestSupport

/// Re-entrancy (docs/architecture.md#identity): state is reserved before any `await`.
@Suite struct ConcurrentJoinTests {
    @Test func fiftyConcurrentJoinsOfOneNameGiveExactlyOneSuccess() async throws {
        // Given an authorizer that suspends, widening the window between check and commit
        let server = RoomServer(configuration: .init(media: TestMediaBackend(), authorizeJoin: { _ in
            await Task.yield()
            return true
        }))
        let peers = (0..<50).map { _ in RoomPeer.connected(to: server) }

        // When all fifty join as "alice" at once
        let codes = try await withThrowingTaskGroup(of: Int?.self) { group in
            for peer in peers {
                group.addTask {
                    let reply = try await peer.request("joinRoom", ["user": "alice", "room": "room1"])
                    return reply["error"]?["code"]?.intValue
                }
            }
            var codes: [Int?] = []
            for try await code in group { codes.append(code) }
            return codes
        }

        // Then one succeeds and 49 get 104
        #expect(codes.filter { $0 == nil }.count == 1)
        #expect(codes.filter { $0 == 104 }.count == 49)
        #expect(server.rooms == ["room1": ["alice"]])
    }
}
