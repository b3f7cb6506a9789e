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
        try await waitUntil("servers released", asyncCondition: {
            (try? await loop.onServiceThread { $0.servers.count }) == 0
        })
        #expect(try await loop.onServiceThread { $0.servers.count } == 0)
        await loop.shutdown()
    }
}
