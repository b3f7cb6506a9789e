import Foundation
@testable import JSONRPC
@testable import RoomServer
import SignalingSupport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The duplicate-detection cache pins no client's bytes (docs/wire-protocol.md#dedupe): it keeps a digest of each
/// request's params, not their text, remembers nothing for an unknown method, and stays within a byte budget per
/// session and per server. Measured as this process's resident memory around the abuse of one real socket.
/// Serialized: the figure is the whole process's, so no other test of the suite may run meanwhile.
@Suite(.serialized) struct DuplicateCacheMemoryTests {
    /// This process's resident set (`VmRSS` of /proc/self/status).
    static func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// Sends `count` requests made by `text(n)` on `peer` one after the other, each answered before the next. The
    /// replies are read off the connection and dropped (``RoomPeer/next()`` would keep every one).
    static func send(_ count: Int, from first: Int = 0, on peer: RoomPeer, _ text: (Int) -> String) async throws {
        let connection = peer.connection
        for n in first..<(first + count) {
            try await peer.sendText(text(n))
            let reply = try await withDeadline(.seconds(10), "the reply to request \(n)") { try await connection.receive() }
            let answered = reply.contains(#""error":{"#)
            #expect(answered, "not an error: \(reply.prefix(200))")
        }
    }

    static let filler = String(repeating: "x", count: 900_000)

    @Test func aThousandHugeRequestsToAnUnknownMethodPinNoMemory() async throws {
        let server = try await RoomServer.start(.init())
        let attacker = try await RoomPeer.dialing(server.url)
        let huge = { (n: Int) in #"{"jsonrpc":"2.0","id":\#(n),"method":"nope","params":[""# + Self.filler + #""]}"# }
        // Warm up the allocator and the socket's buffers
        try await Self.send(20, on: attacker, huge)
        let before = try Self.residentBytes()

        // When one socket sends 1,000 requests of about 900 KB each to a method that does not exist
        try await Self.send(1000, from: 20, on: attacker, huge)

        // Then the server holds on to none of them: a few MiB at most
        let growth = try Self.residentBytes() - before
        #expect(growth < 8 << 20, "resident memory grew by \(growth >> 20) MiB")
        await server.shutdown()
    }

    @Test func aThousandHugeRememberedRequestsPinOnlyTheirDigests() async throws {
        // Given a server without a customRequest hook: each customRequest is answered -1, and remembered for
        // duplicates (issue 32's 1,000 × 1 MiB customRequests). A manual clock that never moves: on a slow machine
        // the 1,020 requests take longer than the 30 s `duplicateRetention`, and the first would expire.
        let server = try await RoomServer.start(.init(clock: ManualClock()))
        let attacker = try await RoomPeer.dialing(server.url)
        let huge = { (n: Int) in
            #"{"jsonrpc":"2.0","id":\#(n),"method":"customRequest","params":{"pad":""# + Self.filler + #""}}"#
        }
        try await Self.send(20, on: attacker, huge)
        let before = try Self.residentBytes()

        // When one socket sends 1,000 of them, about 900 KB of params each
        try await Self.send(1000, from: 20, on: attacker, huge)

        // Then they are all remembered, but by the digest of their params: a few MiB at most
        let growth = try Self.residentBytes() - before
        #expect(growth < 8 << 20, "resident memory grew by \(growth >> 20) MiB")
        let remembered = server.rpc.sessions.withLock { $0.values.map(\.responses.count).reduce(0, +) }
        #expect(remembered == 1000)
        await server.shutdown()
    }

    @Test func aThousandHugeIdsOfRememberedRequestsStayWithinTheBudget() async throws {
        let server = try await RoomServer.start(.init())
        let attacker = try await RoomPeer.dialing(server.url)
        // leaveRoom before joining answers 102, which is remembered for duplicates under its (huge) id
        let huge = { (n: Int) in #"{"jsonrpc":"2.0","id":"\#(n)-"# + Self.filler + #"","method":"leaveRoom"}"# }
        try await Self.send(20, on: attacker, huge)
        let before = try Self.residentBytes()

        // When one socket sends 300 of them, each with its own 900 KB id
        try await Self.send(300, from: 20, on: attacker, huge)

        // Then what the server remembers stays within a few MiB, and its caches within their budgets
        let growth = try Self.residentBytes() - before
        #expect(growth < 8 << 20, "resident memory grew by \(growth >> 20) MiB")
        let perSession = server.rpc.configuration.maxRememberedBytesPerSession
        for session in server.rpc.sessions.withLock({ Array($0.values) }) {
            #expect(session.responses.bytes <= perSession, "\(session.responses.bytes) bytes remembered")
        }
        #expect(server.rpc.rememberedBytes.bytes <= perSession)
        await server.shutdown()
    }
}
