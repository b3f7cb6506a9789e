import Foundation
import SignalingSupport
import TestSupport
import Testing

/// Hostile servers (docs/testing.md#fault-injection): the built `room-join` binary (and so `RoomClient`) against a
/// ``HostileWebSocketServer``. It never hangs or crashes: it exits within its `--timeout` budget with the documented
/// code (3 cannot connect, 5 protocol error or timeout, 6 room closed after a successful join) and a clear message, in
/// bounded memory.
@Suite("room-join against hostile servers")
struct RoomJoinHostileServerTests {
    /// What a run must end with.
    struct Expected: Sendable {
        var status: Int32
        /// Text the readable output (stdout + stderr) must contain.
        var says: String
    }

    /// Runs `room-join` (1 s request timeout, stretched for sanitizer runs; no retries; no reconnection, so that
    /// each case is about one hostile connection) against a hostile server playing `script`.
    func run(within timeout: Duration = .seconds(20), _ script: @escaping @Sendable (HostilePeer) throws -> Void)
        async throws -> RoomJoinProcess
    {
        let server = try HostileWebSocketServer(script: script)
        defer { server.stop() }
        return try await RoomJoinProcess.run([
            server.url(), "--room", "room1", "--user", "alice", "--timeout", "\(deadlineScale)", "--retries", "0",
            "--reconnect-for", "0",
        ], timeout: timeout, sampleMemory: true)
    }

    func check(_ result: RoomJoinProcess, _ expected: Expected, _ what: String) {
        let output = (result.stdout + [result.stderr]).joined(separator: "\n")
        #expect(result.status == expected.status, "\(what): \(output)")
        #expect(output.contains(expected.says), "\(what): \(output)")
        #expect(result.peakMemoryKiB < Self.memoryBoundKiB, "\(what): peak \(result.peakMemoryKiB) KiB")
    }

    /// A generous bound on the peak resident memory (measured here: 32–41 MiB in every case).
    static let memoryBoundKiB = 200 * 1024

    /// The join request's id (the first non-ping message).
    static func joinId(_ peer: HostilePeer) throws -> Int { try peer.nextMessage().id ?? 0 }

    static func joined(_ id: Int) -> String { #"{"jsonrpc":"2.0","id":\#(id),"result":{"value":[],"sessionId":"s"}}"# }
    static let roomClosed = #"{"jsonrpc":"2.0","method":"roomClosed","params":{"room":"room1"}}"#

    static let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)

    /// Cases that end with exit 5 before the join completes.
    static let failedJoins: [(String, Expected)] = [
        ("no replies", Expected(status: 5, says: "no response")),
        ("unknown id", Expected(status: 5, says: "no response")),
        ("non-JSON", Expected(status: 5, says: "no response")),
        ("nested 100,000 deep", Expected(status: 5, says: "no response")),
        ("jsonrpc 1.0", Expected(status: 5, says: "jsonrpc")),
        ("20 MB frame", Expected(status: 5, says: "1009")),
        ("invalid UTF-8", Expected(status: 5, says: "1007")),
        ("abrupt close", Expected(status: 5, says: "join failed")),
    ]

    @Test(arguments: failedJoins)
    func aJoinThatCannotSucceedExits5(what: String, expected: Expected) async throws {
        let result = try await run { peer in
            let id = try Self.joinId(peer)
            switch what {
            case "unknown id": try peer.sendText(Self.joined(id + 1000))
            case "non-JSON": try peer.sendText("<html>502 Bad Gateway</html>")
            case "nested 100,000 deep": try peer.sendText(#"{"jsonrpc":"2.0","id":\#(id),"result":\#(Self.deep)}"#)
            case "jsonrpc 1.0": try peer.sendText(#"{"jsonrpc":"1.0","id":\#(id),"result":{"value":[]}}"#)
            case "20 MB frame":
                try peer.write(HostilePeer.header(.text, length: 20 << 20))
                try peer.write([UInt8](repeating: UInt8(ascii: " "), count: 4 << 20))
            case "invalid UTF-8": try peer.sendFrame(.text, Array(Self.joined(id).utf8.dropLast(2)) + [0xFF, 0xFE, 0x7D])
            case "abrupt close":
                peer.dropConnection()
                return
            default: break
            }
            _ = peer.waitForClose()
        }
        check(result, expected, what)
    }

    @Test func aListenerThatNeverHandshakesExits3() async throws {
        let silent = try SilentTCPListener()
        let result = try await RoomJoinProcess.run([
            "ws://127.0.0.1:\(silent.port)/room", "--room", "room1", "--user", "alice", "--timeout", "\(deadlineScale)",
        ], timeout: .seconds(20), sampleMemory: true)
        check(result, Expected(status: 3, says: "cannot connect"), "no handshake")
    }

    @Test func duplicateResponsesAndBinaryFramesStillJoinThenTheClosedRoomExits6() async throws {
        let result = try await run { peer in
            let id = try Self.joinId(peer)
            try peer.sendFrame(.binary, [0xFF, 0x00, 0xFE])  // garbage, dropped
            try peer.sendFrame(.binary, Array(Self.joined(id).utf8))  // binary frames are read as UTF-8 text
            try peer.sendText(Self.joined(id))  // a duplicate
            try peer.sendText(Self.roomClosed)
            _ = peer.waitForClose()
        }
        check(result, Expected(status: 6, says: "joined room1 as alice"), "duplicates and binary")
        #expect(result.stdout.filter { $0.hasPrefix("joined") }.count == 1)
    }

    @Test func aServerRequestIsAnsweredWithItsIdAndTheRunGoesOn() async throws {
        let answer = LockedValue<String>("")
        let result = try await run { peer in
            let id = try Self.joinId(peer)
            try peer.sendText(#"{"jsonrpc":"2.0","id":9000,"method":"whoAreYou","params":{}}"#)
            answer.withLock { $0 = (try? peer.nextMessage().text) ?? "" }
            try peer.sendText(Self.joined(id))
            try peer.sendText(Self.roomClosed)
            _ = peer.waitForClose()
        }
        check(result, Expected(status: 6, says: "room room1 closed"), "server request")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(answer.withLock { $0 }.utf8)) as? [String: Any])
        #expect((reply["id"] as? NSNumber)?.intValue == 9000)
        let code = ((reply["error"] as? [String: Any])?["code"] as? NSNumber)?.intValue
        #expect(reply["result"] != nil || code == -32601, "\(answer.withLock { $0 })")
    }

    @Test func aFloodOf50000NotificationsEndsCleanlyInBoundedMemory() async throws {
        // (printing 50,000 events takes a while on a loaded machine: the bound is generous)
        let result = try await run(within: .seconds(90)) { peer in
            let id = try Self.joinId(peer)
            try peer.sendText(Self.joined(id))
            var batch: [UInt8] = []
            for i in 0..<50_000 {
                let text = Array(#"{"jsonrpc":"2.0","method":"sendMessage","params":{"room":"room1","user":"bob","message":"m\#(i)"}}"#.utf8)
                batch += HostilePeer.header(.text, length: UInt64(text.count)) + text
                if batch.count > 256 << 10 {
                    try peer.write(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try peer.write(batch)
            try peer.sendClose(1011, reason: "flood over")
            _ = peer.waitForClose()
        }
        // The run ends with 5 (the connection ended, or the event buffer overflowed): never a hang or a crash
        check(result, Expected(status: 5, says: "room1"), "flood")
    }
}
