import JSONRPC
import RoomClient
import RoomServer
import TestSupport
import Testing

/// Issue 32 item 1, "replay loses what the kernel held": a member's link swallows what the server writes
/// (black-holed server→client, so the server's socket drains into the void and the server believes it delivered),
/// then both sides are reset, and the member resumes its session. Everything the server sent meanwhile must reach it
/// exactly once, in order.
@Suite(.serialized)
struct KernelHeldReplayTests {
    /// The chat messages written into the black hole.
    static let swallowed = 100

    /// Black-holes the receiver's link server→client, has the sender say 1…``swallowed`` and waits until the black
    /// hole swallowed the last of them (the server wrote them all to the socket), then resets both sides and waits
    /// for the receiver's resume; the sender then says the marker.
    static func swallowThenReset(_ proxy: FaultProxy, _ sender: ChatSender, _ tally: ChatTally) async throws {
        let link = try #require(proxy.newestLink, "the receiver's link")
        let recoveries = tally.recoveries
        link.blackHole(.serverToClient)
        try await sender.say(1...Self.swallowed)
        try await proxy.waitUntilDiscarded(#""\#(Self.swallowed)""#, .serverToClient)
        link.reset()
        try await tally.waitForRecovery(after: recoveries)
        try await sender.say(NumberedChat.marker)
    }

    @Test func aRawJSONRPCMemberResumingAfterABlackHoleAndAResetGetsEveryNotificationOnceInOrder() async throws {
        // Given a raw JSON-RPC member (joinRoom by hand) behind a proxy, and a sender straight to the server
        let server = try await NumberedChat.server()
        let proxy = try FaultProxy(targetPort: RoomRecoveryTests.port(of: server.url))
        defer { proxy.stop() }
        let tally = ChatTally()
        let receiver = try await NumberedChat.rawReceiver(through: proxy, tally: tally)
        let sessionId = receiver.sessionId
        let sender = try await ChatSender.joining(server.url)

        // When the server writes 100 chat notifications into a black hole, then both sides are reset
        try await Self.swallowThenReset(proxy, sender, tally)

        // Then the member resumed its session and got 1…100 exactly once, in order, then the marker
        let report = try await tally.report(expecting: Self.swallowed)
        #expect(report.isExact, "\(report)")
        #expect(receiver.sessionId == sessionId)
        #expect(tally.failures.isEmpty, "\(tally.failures)")
        await receiver.close()
        await sender.client.close()
        await server.shutdown()
    }

    @Test func aRoomClientResumingAfterABlackHoleAndAResetGetsEveryMessageOnceInOrder() async throws {
        // Given a RoomClient behind a proxy, and a sender straight to the server
        let server = try await NumberedChat.server()
        let proxy = try FaultProxy(targetPort: RoomRecoveryTests.port(of: server.url))
        defer { proxy.stop() }
        let tally = ChatTally()
        let (receiver, reader) = try await NumberedChat.roomReceiver(through: proxy, tally: tally)
        let sender = try await ChatSender.joining(server.url)

        // When the server writes 100 chat notifications into a black hole, then both sides are reset
        try await Self.swallowThenReset(proxy, sender, tally)

        // Then the RoomClient resumed and reported 1…100 exactly once, in order, then the marker
        let report = try await tally.report(expecting: Self.swallowed)
        #expect(report.isExact, "\(report)")
        #expect(receiver.connectionState == .resumed)
        #expect(tally.failures.isEmpty, "\(tally.failures)")
        await receiver.disconnect()
        reader.cancel()
        await sender.client.close()
        await server.shutdown()
    }
}
