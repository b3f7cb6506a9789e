import Foundation
import JSONRPC
import RoomServer
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One unauthenticated socket cannot freeze the server with batches (docs/wire-protocol.md#limits): a batch longer
/// than the cap gets one clear error, and batches within it cost the server O(1) per entry, also when every entry
/// shares one id. `/healthz` answers within 1 s throughout, over real sockets.
@Suite struct AbusiveBatchTests {
    /// CPU time (user and system) this process has used so far: the in-process server's, and the test's own.
    static func processCPUTime() -> Duration {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    struct Unhealthy: Error { var status: Int }

    /// Asks `/healthz` over and over until cancelled; each must answer 200 within 1 s. Returns the slowest answer.
    static func probeHealth(port: Int) async -> Result<Duration, any Error> {
        var slowest = Duration.zero
        while !Task.isCancelled {
            let start = ContinuousClock.now
            do {
                let response = try await RawHTTPClient.exchange(port: port, "GET", "/healthz", timeout: .seconds(1))
                guard response.status == 200 else { return .failure(Unhealthy(status: response.status)) }
            } catch {
                return .failure(error)
            }
            slowest = max(slowest, ContinuousClock.now - start)
            guard slowest < .seconds(1) else { return .success(slowest) }
        }
        return .success(slowest)
    }

    @Test func batchesOf18000RequestsSharingOneIdNeitherStallTheServerNorItsHealthCheck() async throws {
        let server = try await RoomServer.start(.init())
        let port = try #require(RawHTTPClient.port(of: server.url))
        let attacker = try await RoomPeer.dialing(server.url)
        // leaveRoom before joining answers 102, an error that is remembered for duplicates: every entry reaches the
        // response cache.
        let entry = #"{"jsonrpc":"2.0","id":1,"method":"leaveRoom"}"#
        let probe = Task { await Self.probeHealth(port: port) }
        let cpuBefore = Self.processCPUTime()

        do {
            // When one batch of 18,000 requests sharing id 1 (about 820 KB) is sent twice
            let whole = "[" + Array(repeating: entry, count: 18_000).joined(separator: ",") + "]"
            for _ in 0..<2 {
                try await attacker.sendText(whole)
                let reply = try await attacker.next()
                // Then it is refused whole, with one error that names the cap
                #expect(reply["error"]?["code"] == -32600, "\(reply.jsonText.prefix(300))")
                #expect(reply["error"]?["data"]?.stringValue?.contains("18000") == true, "\(reply.jsonText.prefix(300))")
            }
            // And the same 18,000 sent twice in batches of 100 are all answered
            let capped = "[" + Array(repeating: entry, count: 100).joined(separator: ",") + "]"
            for _ in 0..<(2 * 180) {
                try await attacker.sendText(capped)
                let reply = try await attacker.next()
                #expect(reply.arrayValue?.count == 100)
                #expect(reply[0]?["error"]?["code"] == 102)
            }
        } catch {
            Issue.record("the attacker's batches were not answered: \(error)")
        }

        // Then the server's CPU stayed bounded, and /healthz answered within 1 s throughout
        // (About 3 s in a debug build with the client's own work; a single 18,000-entry batch took 16–25 s before.)
        let cpu = Self.processCPUTime() - cpuBefore
        #expect(cpu < .seconds(10) * deadlineScale, "the attack cost \(cpu) of CPU")
        probe.cancel()
        switch await probe.value {
        case .success(let slowest): #expect(slowest < .seconds(1) * deadlineScale, "/healthz took \(slowest)")
        case .failure(let error): Issue.record("/healthz failed during the attack: \(error)")
        }
        await server.shutdown()
    }

    @Test func anEmbedderSetsTheBatchCapThroughTheRoomServersLimits() async throws {
        // Given a RoomServer whose limits allow batches of 2
        let server = try await RoomServer.start(.init(limits: RoomServerLimits(maxBatchLength: 2)))
        let peer = try await RoomPeer.dialing(server.url)
        let entry = #"{"jsonrpc":"2.0","id":1,"method":"leaveRoom"}"#

        // When a batch of 3 and then one of 2 are sent
        try await peer.sendText("[" + Array(repeating: entry, count: 3).joined(separator: ",") + "]")
        let refusal = try await peer.next()
        try await peer.sendText("[" + Array(repeating: entry, count: 2).joined(separator: ",") + "]")
        let answers = try await peer.next()

        // Then the 3 are refused whole naming the limit, and the 2 are served
        #expect(refusal["error"]?["code"] == -32600, "\(refusal.jsonText)")
        #expect(refusal["error"]?["data"]?.stringValue?.contains("limit of 2") == true, "\(refusal.jsonText)")
        #expect(answers.arrayValue?.count == 2, "\(answers.jsonText)")
        await server.shutdown()
    }
}
