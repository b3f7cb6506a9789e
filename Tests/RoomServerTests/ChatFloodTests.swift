import Foundation
import JSONRPC
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// Issue 30 item 4: one member's chat never gets the others disconnected. Messages are capped in size
/// (``RoomServerLimits/maxChatMessageBytes``) and each session's chat fan-out in bytes per second
/// (``RoomServerLimits/maxBroadcastBytesPerSecond``); both refusals are errors to the sender alone.
@Suite struct ChatFloodTests {
    /// Reads `member`'s notifications until `marker` from `sender`; chat messages before it, or the end of the
    /// connection, are issues (counted, never printed: they may be 900 KB each).
    static func expectMarker(_ marker: String, from sender: String, room: String, at member: RoomPeer,
                             _ who: String) async throws {
        let expected: JSONValue = ["room": .string(room), "user": .string(sender), "message": .string(marker)]
        var others = 0
        while true {
            let note: JSONValue
            do {
                note = try await member.notification()
            } catch let end as ConnectionEnd {
                Issue.record("\(who) was disconnected after \(others) other chat messages: \(end)")
                return
            }
            guard note["method"] == "sendMessage" else { continue }
            if note["params"] == expected { break }
            others += 1
        }
        #expect(others == 0, "\(who) got \(others) chat messages before the marker")
    }

    @Test("40 × 900 KB sendMessage: each refused with 999, and no member reading at 2 MB/s is closed")
    func oversizeChatIsRefusedAndSlowMembersStay() async throws {
        let server = try await RoomServer.start(.init())
        let port = try #require(URL(string: server.url)?.port)
        // Three members behind a proxy that forwards at most 64 KiB every 32 ms: 2 MB/s, as in the issue
        let proxy = try FaultProxy(targetPort: port)
        proxy.delay = .milliseconds(32)
        var members: [RoomPeer] = []
        for index in 1...3 {
            let member = try await RoomPeer.dialing(proxy.url(path: "/room"))
            try await member.join("member\(index)", "chat")
            members.append(member)
        }
        let host = try await RoomPeer.dialing(server.url), flooder = try await RoomPeer.dialing(server.url)
        try await host.join("host", "chat")
        try await flooder.join("flooder", "chat")

        // When the flooder sends 40 messages of 900 KB without waiting
        let big = String(repeating: "x", count: 900_000)
        var ids: [Int] = []
        for _ in 0..<40 {
            ids.append(try await flooder.send("sendMessage", ["message": .string(big), "userMessage": "flooder",
                                                              "roomMessage": "chat"]))
        }
        // Then each is refused with 999 naming the limit
        do {
            for id in ids {
                let reply = try await flooder.response(id)
                #expect(reply["error"]?["code"] == 999, "\(reply.jsonText.prefix(200))")
                #expect(reply["error"]?["message"]?.stringValue?.contains("900000 bytes exceeds the limit of 8192") == true,
                        "\(reply.jsonText.prefix(200))")
            }
        } catch {
            Issue.record("the flooder's replies: \(error)")
        }
        // And the members hear the host's marker, never a big message, and nobody is closed
        do {
            try await host.result("sendMessage", ["message": "marker", "userMessage": "host", "roomMessage": "chat"])
        } catch {
            Issue.record("the host's marker: \(error)")
        }
        for (index, member) in members.enumerated() {
            try await Self.expectMarker("marker", from: "host", room: "chat", at: member, "member\(index + 1)")
        }
        proxy.stop()
        await server.shutdown()
    }

    @Test("a sender past its fan-out budget gets -32000 until the next second; the others stay and hear the rest")
    func fanOutBudgetRefusesTheSenderOnly() async throws {
        // Given a budget of 50,000 bytes a second (message bytes × recipients) on a clock that moves by hand
        let clock = ManualClock()
        let limits = RoomServerLimits(maxBroadcastBytesPerSecond: 50_000)
        let server = try await RoomServer.start(.init(limits: limits, clock: clock))
        let alice = try await RoomPeer.dialing(server.url), bob = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "r")
        try await bob.join("bob", "r")

        // When alice sends 4 KiB messages to the two of them (about 8.3 KB of fan-out each)
        let text = String(repeating: "y", count: 4096)
        let chat: JSONValue = ["message": .string(text), "userMessage": "alice", "roomMessage": "r"]
        var sent = 0
        var refusal: JSONValue?
        for _ in 0..<20 {
            let reply = try await alice.request("sendMessage", chat)
            if let error = reply["error"] {
                refusal = error
                break
            }
            sent += 1
        }
        // Then she is refused once the second's budget is spent: five fit under 50,000 bytes, the sixth crosses it
        // and still goes, the seventh is refused
        #expect(sent == 6, "\(sent) messages went out")
        #expect(refusal?["code"] == -32000, "\(refusal?.jsonText ?? "nil")")
        #expect(refusal?["message"] == "rate limited")
        #expect(refusal?["data"]?["value"]?.stringValue?.contains("50000 bytes per second") == true,
                "\(refusal?.jsonText ?? "nil")")
        // And a private message waits for the budget too, while bob can still chat
        #expect(try await alice.error("sendPrivateMessage", ["to": "bob", "message": "psst"])["code"] == -32000)
        try await bob.result("sendMessage", ["message": "bob's turn", "userMessage": "bob", "roomMessage": "r"])
        // And the next second she may send again
        clock.advance(by: .seconds(1))
        try await alice.result("sendMessage", ["message": "again", "userMessage": "alice", "roomMessage": "r"])
        // bob heard alice's seven messages, his own, and "again", and was never closed
        for _ in 0..<sent { try await Self.expectMarker(text, from: "alice", room: "r", at: bob, "bob") }
        try await Self.expectMarker("bob's turn", from: "bob", room: "r", at: bob, "bob")
        try await Self.expectMarker("again", from: "alice", room: "r", at: bob, "bob")
        await server.shutdown()
    }

    @Test("a private message over the size cap gets 999 naming the limit and never reaches its target")
    func oversizePrivateMessageIsRefused() async throws {
        let limits = RoomServerLimits(maxChatMessageBytes: 1000)
        let server = try await RoomServer.start(.init(limits: limits))
        let alice = try await RoomPeer.dialing(server.url), bob = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "r")
        try await bob.join("bob", "r")
        _ = try await alice.notification("participantJoined")
        let refusal = try await alice.error("sendPrivateMessage", ["to": "bob", "message": .string(
            String(repeating: "z", count: 1001))])
        #expect(refusal["code"] == 999, "\(refusal.jsonText.prefix(200))")
        #expect(refusal["message"]?.stringValue?.contains("1001 bytes exceeds the limit of 1000") == true,
                "\(refusal.jsonText.prefix(200))")
        // One at the limit goes; bob hears it first, never the big one
        try await alice.result("sendPrivateMessage", ["to": "bob", "message": .string(String(repeating: "z", count: 1000))])
        let heard = try await bob.notification("privateMessage")
        #expect(heard["message"]?.stringValue?.utf8.count == 1000, "\(heard.jsonText.prefix(200))")
        await server.shutdown()
    }
}
