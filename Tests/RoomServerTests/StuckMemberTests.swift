import Foundation
import JSONRPC
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// docs/architecture.md#backpressure: one member whose socket stops draining (a phone asleep, a process in a debugger)
/// never slows the room. The others keep getting replies and chat; the stuck member's session ends with 4410 once more
/// notifications than the limit wait for it, or, if it drains in time, gets everything in order.
@Suite(.serialized) struct StuckMemberTests {
    /// How the stuck member stops reading.
    enum Stop: String, CaseIterable, CustomStringConvertible {
        /// A raw TCP client that joins and never reads its socket again.
        case neverReads
        /// A room client behind a ``FaultProxy`` that pauses.
        case pausedProxy
        var description: String { rawValue }
    }

    /// A stopped member of room `r` named `stuck`.
    struct StuckMember {
        let raw: RawTCPClient?
        let peer: RoomPeer?
        let proxy: FaultProxy?

        static func join(_ stop: Stop, server: RoomServer) async throws -> StuckMember {
            let port = try #require(URL(string: server.url)?.port)
            switch stop {
            case .neverReads:
                let raw = try RawTCPClient(port: port)
                try raw.sendUpgradeRequest(path: "/room")
                let join = RPCRequest(id: 1, method: "joinRoom", params: ["user": "stuck", "room": "r"]).jsonText
                try raw.write(RawTCPClient.maskedFrame(.text, Array(join.utf8)))
                return StuckMember(raw: raw, peer: nil, proxy: nil)
            case .pausedProxy:
                let proxy = try FaultProxy(targetPort: port)
                let peer = try await RoomPeer.dialing(proxy.url(path: "/room"))
                try await peer.join("stuck", "r")
                proxy.pause()
                return StuckMember(raw: nil, peer: peer, proxy: proxy)
            }
        }

        /// Lets the member read again and returns the close code its connection ended with.
        func drainToEnd() async throws -> UInt16? {
            if let raw { return RawTCPClient.closeCode(in: await raw.readToEOF()) }
            proxy?.resume()
            return try await peer?.end().code
        }
    }

    /// Nineteen members of room `r` on real sockets.
    private func members(of server: RoomServer) async throws -> [RoomPeer] {
        var members: [RoomPeer] = []
        for index in 0..<19 {
            let member = try await RoomPeer.dialing(server.url)
            try await member.join("m\(index)", "r")
            members.append(member)
        }
        // Each learns of the ones after it; drop those notices.
        for (index, member) in members.enumerated() {
            for _ in (index + 1)..<members.count { try await member.notification("participantJoined") }
        }
        return members
    }

    /// One chat round: `sender` sends `text`; returns the time until its reply and every member's copy arrived.
    private func chat(_ text: String, from index: Int, to members: [RoomPeer]) async throws -> Duration {
        let start = ContinuousClock.now
        try await members[index].result("sendMessage", ["message": .string(text), "userMessage": .string("m\(index)"),
                                                        "roomMessage": "r"])
        for member in members {
            var note = try await member.notification()
            // participantJoined/participantLeft of the stuck member may come in between.
            while note["method"] != "sendMessage" { note = try await member.notification() }
            #expect(note["params"]?["message"] == .string(text))
        }
        return ContinuousClock.now - start
    }

    @Test(arguments: Stop.allCases)
    func aStuckMemberSlowsNobodyAndIsClosedWith4410WhenItsQueuePassesTheLimit(_ stop: Stop) async throws {
        // Given 19 members and a stuck one, and at most 32 notifications waiting per member (chat up to 32 KiB,
        // without a fan-out budget: the members' own traffic is what fills the stuck one's queue)
        let server = try await RoomServer.start(.init(limits: .init(
            maxQueuedNotifications: 32, maxChatMessageBytes: 32 << 10, maxBroadcastBytesPerSecond: nil)))
        let members = try await members(of: server)
        let stuck = try await StuckMember.join(stop, server: server)
        try await waitUntil("stuck to join") { server.rooms["r"]?.contains("stuck") == true }

        // When the others chat with 16 KiB messages until the stuck member is gone (bounded: 1,000 rounds)
        let filler = String(repeating: "x", count: 16 << 10)
        var latencies: [Duration] = []
        for round in 0..<1000 where server.rooms["r"]?.contains("stuck") == true {
            latencies.append(try await chat("\(round) \(filler)", from: round % members.count, to: members))
        }

        // Then the stuck member was removed from the room for everyone, once its queue passed the limit
        #expect(server.rooms["r"]?.contains("stuck") == false)
        for member in members {
            var note = try await member.notification()
            while note["method"] != "participantLeft" { note = try await member.notification() }
            #expect(note["params"] == ["name": "stuck"])
        }
        // And its socket ends with 4410 (its session ended: docs/wire-protocol.md#sessions) once it reads again
        let endCode = try await stuck.drainToEnd()
        #expect(endCode == 4410, "ended with \(String(describing: endCode))")

        // And replies and chat kept flowing for the others: every round completed (p99 < 50 ms is the target;
        // bounded loosely here, the exact figure is docs/reliability.md's, from a quiet machine)
        let sorted = latencies.sorted()
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print("stuck member (\(stop)): \(latencies.count) rounds, p50 \(sorted[sorted.count / 2]), p99 \(p99)")
        #expect(latencies.count >= 32)
        #expect(p99 < .milliseconds(500) * deadlineScale)
        await server.shutdown()
    }

    @Test func aPausedMemberThatDrainsInTimeGetsEverythingInOrder() async throws {
        // Given 19 members and one behind a proxy that pauses, with room for 64 notifications
        let server = try await RoomServer.start(.init(limits: .init(maxQueuedNotifications: 64)))
        let members = try await members(of: server)
        let stuck = try await StuckMember.join(.pausedProxy, server: server)
        let peer = try #require(stuck.peer)
        for member in members { try await member.notification("participantJoined") }

        // When the others chat 40 times while it is paused
        for round in 0..<40 { _ = try await chat("message \(round)", from: round % members.count, to: members) }

        // Then, once the proxy forwards again, it gets all 40 in order, and it is still in the room
        stuck.proxy?.resume()
        for round in 0..<40 {
            #expect(try await peer.notification("sendMessage")["message"] == .string("message \(round)"))
        }
        #expect(server.rooms["r"]?.contains("stuck") == true)
        try await peer.result("sendMessage", ["message": "back", "userMessage": "stuck", "roomMessage": "r"])
        await server.shutdown()
    }
}
