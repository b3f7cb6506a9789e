import JSONRPC
import RoomClient
import RoomServer
import SignalingSupport
import TestSupport
import Testing

/// Issue 32 item 2, "duplicates on a takeover": a client whose link stalls declares it dead (its heartbeat) and
/// resumes its session on a new one while the old socket is still open; the server hands what it had not yet
/// written to the new socket while the old one flushes what it held. The client must see each notification once.
///
/// Deterministic: the receiver's heartbeat and backoff run on a `ManualClock`, moved by the test, so the old link is
/// declared dead only after the server queued the whole backlog behind it.
@Suite(.serialized)
struct TakeoverDuplicateTests {
    /// Chat messages queued behind the stalled link, and their padding: 1,000 × 8 KB (under the 8 KiB chat limit),
    /// more than the loopback kernel buffers of the server's socket and the proxy's hold, so the server still queues
    /// some, unwritten, when the new connection takes the session over.
    static let backlog = 1000, padding = 8000

    /// Stalls the receiver's link both ways (the server hears nothing of the client's ping and close), has the
    /// sender say 1…``backlog``, then moves the receiver's clock until its heartbeat gives the link up and it resumes
    /// on a new one; then lets the old link flush, waits until it closed, and has the sender say the marker.
    static func stallTakeOverAndFlush(_ proxy: FaultProxy, _ clock: ManualClock, _ sender: ChatSender,
                                      _ tally: ChatTally, states: @escaping @Sendable () -> [ConnectionState]) async throws {
        let old = try #require(proxy.newestLink, "the receiver's link")
        old.pause(.serverToClient)
        old.pause(.clientToServer)
        try await sender.say(1...Self.backlog, padding: Self.padding)
        let recoveries = tally.recoveries
        // The heartbeat's ping (1 s), its missing pong (1 s more), then the first backoff (at most 400 ms)
        try await advance(clock, by: .seconds(1))
        try await advance(clock, by: .seconds(1))
        try await waitUntil("the receiver to give the stalled link up") {
            states().contains { if case .reconnecting = $0 { true } else { false } }
        }
        try await advance(clock, by: .milliseconds(400))
        let new = try await proxy.waitForLink(after: old.number)
        try await tally.waitForRecovery(after: recoveries)
        #expect(old.isOpen, "the old link must still be open when the session is taken over")
        old.resume(.serverToClient)
        old.resume(.clientToServer)
        try await waitUntil("the old link to close after its flush") { !old.isOpen }
        #expect(new.isOpen)
        try await sender.say(NumberedChat.marker)
    }

    @Test func aRawJSONRPCClientTakingItsSessionOverFromAStalledLinkGetsEveryNotificationOnce() async throws {
        // Given a raw JSON-RPC member behind a proxy, its heartbeat (1 s) and backoff on a manual clock
        let server = try await NumberedChat.server()
        let proxy = try FaultProxy(targetPort: RoomRecoveryTests.port(of: server.url))
        defer { proxy.stop() }
        let clock = ManualClock()
        let tally = ChatTally()
        let receiver = try await NumberedChat.rawReceiver(through: proxy, heartbeat: .every(.seconds(1)),
                                                          clock: clock, tally: tally)
        let log = StateLog(receiver)
        let sessionId = receiver.sessionId
        let sender = try await ChatSender.joining(server.url)

        // When its link stalls under 1,000 notifications, it resumes on a new link, and the old one flushes
        try await Self.stallTakeOverAndFlush(proxy, clock, sender, tally) { log.all }

        // Then it got 1…1,000 exactly once, in order, then the marker, in the same session
        let report = try await tally.report(expecting: Self.backlog)
        #expect(report.isExact, "\(report)")
        #expect(receiver.sessionId == sessionId)
        #expect(tally.failures.isEmpty, "\(tally.failures)")
        await receiver.close()
        await sender.client.close()
        await server.shutdown()
    }

    @Test func aRoomClientTakingItsSessionOverFromAStalledLinkReportsEveryMessageOnce() async throws {
        // Given a RoomClient behind a proxy, its heartbeat (1 s) and backoff on a manual clock
        let server = try await NumberedChat.server()
        let proxy = try FaultProxy(targetPort: RoomRecoveryTests.port(of: server.url))
        defer { proxy.stop() }
        let clock = ManualClock()
        let tally = ChatTally()
        let (receiver, reader) = try await NumberedChat.roomReceiver(through: proxy, heartbeat: .every(.seconds(1)),
                                                                     clock: clock, tally: tally)
        let log = EventLog(receiver)
        let sender = try await ChatSender.joining(server.url)

        // When its link stalls under 1,000 notifications, it resumes on a new link, and the old one flushes
        try await Self.stallTakeOverAndFlush(proxy, clock, sender, tally) {
            log.all.compactMap { if case .connectionStateChanged(let state) = $0 { state } else { nil } }
        }

        // Then it reported 1…1,000 exactly once, in order, then the marker
        let report = try await tally.report(expecting: Self.backlog)
        #expect(report.isExact, "\(report)")
        #expect(tally.failures.isEmpty, "\(tally.failures)")
        await receiver.disconnect()
        reader.cancel()
        await sender.client.close()
        await server.shutdown()
    }
}
