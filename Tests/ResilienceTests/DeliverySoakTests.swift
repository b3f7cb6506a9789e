import Foundation
import JSONRPC
import RoomClient
import RoomServer
import TestSupport
import Testing

/// Issue 32's soak ("Tests and figures"): a room with a fast chat sender and a receiver whose link is faulted
/// ``faults`` times during ``notifications`` notifications: 0 lost, 0 doubled, in order, for `RoomClient`, `room-join`
/// and a raw JSON-RPC client.
///
/// Each fault black-holes the receiver's link server→client while the sender says ``blackHoleMessages`` messages
/// (the server writes them into the void and believes it delivered), then resets both sides (RST); the sender goes
/// on with ``reconnectingMessages`` while the receiver reconnects and resumes its session by itself, then with the
/// rest of the fault's share. The chat is numbered, and the receiver's numbers must be exactly 1…``notifications``.
@Suite(.serialized)
struct DeliverySoakTests {
    /// Numbered chat messages the sender says.
    static let notifications = 10_000
    /// Faults of the receiver's link, evenly spread over the chat.
    static let faults = 20
    /// The sender's pace: each message waits for its answer, and requests are spaced at this rate.
    static let messagesPerSecond = 500.0
    /// Messages said into each black hole: about 400 ms at 500 a second, far more than a heartbeat-less receiver
    /// notices, and what a server writes into a kernel buffer long before a mobile client is known to be gone.
    static let blackHoleMessages = 200
    /// Messages said right after each reset, while the receiver reconnects (the server queues them, unwritten).
    static let reconnectingMessages = 100
    /// The receivers' heartbeat: longer than a black hole, so that the reset, not the heartbeat, ends the link.
    static let heartbeat = JSONRPCClient.Heartbeat.every(.seconds(1) * deadlineScale)

    /// Runs the chat with its faults against the receiver behind `proxy`, and returns the verdict once the marker
    /// arrived.
    static func soak(_ proxy: FaultProxy, _ sender: ChatSender, _ tally: ChatTally) async throws -> SequenceReport {
        let share = notifications / faults
        let quiet = max(0, share - blackHoleMessages - reconnectingMessages)
        var next = 1
        func say(_ count: Int) async throws {
            let last = min(next + count - 1, notifications)
            guard last >= next else { return }
            try await sender.say(next...last)
            next = last + 1
        }
        for fault in 1...faults {
            try await say(quiet / 2)
            let link = try #require(proxy.newestLink, "the receiver's link before fault \(fault)")
            let recoveries = tally.recoveries
            link.blackHole(.serverToClient)
            try await say(blackHoleMessages)
            link.reset()
            try await say(reconnectingMessages)
            try await tally.waitForRecovery(after: recoveries, timeout: .seconds(20))
            try await say(quiet - quiet / 2)
        }
        try await say(notifications)
        try await sender.say(NumberedChat.marker)
        return try await tally.report(expecting: notifications, timeout: .seconds(30))
    }

    @Test func aRawJSONRPCClientGetsEveryNotificationOnceInOrderThroughTwentyFaults() async throws {
        // Given a raw JSON-RPC member behind a proxy and a paced sender straight to the server
        let server = try await NumberedChat.server()
        let proxy = try FaultProxy(targetPort: RoomRecoveryTests.port(of: server.url))
        defer { proxy.stop() }
        let tally = ChatTally()
        let receiver = try await NumberedChat.rawReceiver(through: proxy, heartbeat: Self.heartbeat, tally: tally)
        let sessionId = receiver.sessionId
        let sender = try await ChatSender.joining(server.url, perSecond: Self.messagesPerSecond)

        // When its link is black-holed and reset 20 times during 10,000 notifications
        let report = try await Self.soak(proxy, sender, tally)

        // Then it got every one exactly once, in order, in one session
        #expect(report.isExact, "\(report)")
        #expect(receiver.sessionId == sessionId)
        #expect(tally.failures.isEmpty, "\(tally.failures)")
        await receiver.close()
        await sender.client.close()
        await server.shutdown()
    }

    @Test func aRoomClientReportsEveryMessageOnceInOrderThroughTwentyFaults() async throws {
        // Given a RoomClient behind a proxy and a paced sender straight to the server
        let server = try await NumberedChat.server()
        let proxy = try FaultProxy(targetPort: RoomRecoveryTests.port(of: server.url))
        defer { proxy.stop() }
        let tally = ChatTally()
        let (receiver, reader) = try await NumberedChat.roomReceiver(through: proxy, heartbeat: Self.heartbeat,
                                                                     tally: tally)
        let sender = try await ChatSender.joining(server.url, perSecond: Self.messagesPerSecond)

        // When its link is black-holed and reset 20 times during 10,000 notifications
        let report = try await Self.soak(proxy, sender, tally)

        // Then it reported every message exactly once, in order
        #expect(report.isExact, "\(report)")
        #expect(tally.failures.isEmpty, "\(tally.failures)")
        await receiver.disconnect()
        reader.cancel()
        await sender.client.close()
        await server.shutdown()
    }

    @Test func roomJoinPrintsEveryMessageOnceInOrderThroughTwentyFaults() async throws {
        // Given room-join --json behind a proxy (it reconnects and resumes on its own) and a paced sender
        let server = try await NumberedChat.server()
        let proxy = try FaultProxy(targetPort: RoomRecoveryTests.port(of: server.url))
        defer { proxy.stop() }
        let tally = ChatTally()
        let roomJoin = try ChildProcess("room-join", [proxy.url(path: "/room"), "--room", NumberedChat.room,
                                                      "--user", NumberedChat.receiver, "--json"])
        let reader = Task { await Self.read(roomJoin, into: tally) }
        try await waitUntil("room-join to join") {
            server.rooms[NumberedChat.room]?.contains(NumberedChat.receiver) == true
        }
        let sender = try await ChatSender.joining(server.url, perSecond: Self.messagesPerSecond)

        // When its link is black-holed and reset 20 times during 10,000 notifications
        let report = try await Self.soak(proxy, sender, tally)

        // Then it printed every message exactly once, in order, and no error
        #expect(report.isExact, "\(report)")
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
        roomJoin.send(SIGINT)
        #expect(try await roomJoin.exitStatus() == 130)
        await reader.value
        await sender.client.close()
        await server.shutdown()
    }

    /// Reads `room-join --json`'s lines into `tally`: the sender's chat, resumes and rejoins; an error line or an
    /// unreadable one is a failure.
    static func read(_ roomJoin: ChildProcess, into tally: ChatTally) async {
        do {
            while let line = try await roomJoin.nextLine(within: .seconds(600)) {
                guard let event = try? JSONValue(parsing: line) else {
                    tally.fail("unreadable line: \(line.prefix(200))")
                    continue
                }
                switch event["event"]?.stringValue {
                case "message" where event["user"]?.stringValue == NumberedChat.sender:
                    tally.record(event["text"]?.stringValue ?? "")
                case "connectionState" where ["resumed", "rejoined"].contains(event["state"]?.stringValue ?? ""):
                    tally.recordRecovery()
                case "error":
                    tally.fail("room-join printed an error: \(line.prefix(300))")
                default:
                    break
                }
            }
        } catch {
            tally.fail("room-join's output: \(error)")
        }
    }
}
