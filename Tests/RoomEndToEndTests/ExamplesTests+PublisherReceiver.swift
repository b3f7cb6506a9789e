import RoomServer
import Testing
import TestSupport

/// `room-publisher-receiver` against an in-process RoomServer: both sides reach the stable signaling state, apply
/// the server's candidates, and their made-up host candidates are accepted by the server's simulated media.
extension ExamplesTests {
    @Test func thePublisherAndTheReceiverNegotiateAndTrickleThroughTheRoom() async throws {
        let media = SimulatedMediaBackend()
        let server = try await RoomServer.start(.init(media: media))

        let example = try ChildProcess("room-publisher-receiver", [server.url])
        let status = try await example.exitStatus(within: .seconds(30))
        let lines = await example.remainingLines(), stderr = await example.stderr

        #expect(status == 0, "\(stderr)")
        for side in ["publisher", "receiver"] {
            #expect(lines.contains("\(side): answer applied; signaling state stable"), "\(lines)")
            #expect(lines.contains("\(side): 1 remote candidate(s) received; signaling state stable"), "\(lines)")
            #expect(lines.contains { $0.hasPrefix("\(side): local candidate 127.0.0.1:") })
            #expect(lines.contains("\(side): left"))
        }
        #expect(lines.contains("receiver: publisher published webcam"))
        #expect(lines.last == "done")
        // Both left the room on the server's side too
        try await waitUntil("the room to empty") { server.rooms.isEmpty }
        #expect(media.endpoints.isEmpty)
        await server.shutdown()
    }
}
