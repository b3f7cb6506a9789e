import TestSupport
import Testing
@testable import WebSocketTransport

@Suite struct ServerReleaseTests {
    @Test func shutDownServersAreReleasedByTheLoop() async throws {
        let loop = WebSocketEventLoop(serverReleaseGrace: .milliseconds(50))
        for _ in 0..<3 {
            let server = try await WebSocketServer.start(loop: loop)
            await server.shutdown()
        }
        // After the grace period that lets lws finish destroying each vhost, the loop lets go of the servers.
        try await withDeadline(.seconds(10), "servers released") {
            while await loop.onServiceThread({ $0.servers.count }) > 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(await loop.onServiceThread { $0.servers.count } == 0)
        await loop.shutdown()
    }
}
