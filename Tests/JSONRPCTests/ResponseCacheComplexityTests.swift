@testable import JSONRPC
import SignalingSupport
import Testing
import TestSupport

/// `ResponseCache` costs O(1) per entry (docs/wire-protocol.md#dedupe): a message carrying one id many times, a
/// retry of it, and the evictions and expiries that follow never scan every earlier entry with that id. The issue
/// it pins down: one batch of 18,000 requests sharing `"id":1`, sent twice, took 16–25 s of server CPU.
@Suite struct ResponseCacheComplexityTests {
    /// `count` copies of one request (one id, one content), as one batch carries them.
    private func sameRequest(_ count: Int, method: String = "x") -> [RPCRequest] {
        Array(repeating: RPCRequest(id: .number(1), method: method, params: [1]), count: count)
    }

    @Test func aLargeGroupSharingOneIdIsLookedUpRetriedEvictedAndExpiredInLinearTime() async throws {
        let clock = ManualClock()
        let cache = ResponseCache(clock: clock, retention: .seconds(30), limit: 1000)
        let size = 30_000
        // Generous: linear work takes well under a second even in a debug build; the quadratic scans took minutes.
        try await withDeadline(.seconds(20), "30,000 same-id entries looked up, retried, finished and expired") {
            // Given one message with the same request 30,000 times: each is new
            let batch = sameRequest(size)
            let first = cache.begin(batch)
            var tickets: [ResponseCache.Ticket] = []
            for lookup in first {
                guard case .new(let ticket) = lookup else { Issue.record("not new: \(lookup)"); return }
                tickets.append(ticket)
            }
            // When it is re-sent whole while every entry runs: each copy attaches to its counterpart's run
            let retried = cache.begin(batch)
            #expect(retried.allSatisfy { if case .running = $0 { true } else { false } })
            // And every run finishes (past the limit of 1,000, so 29,000 are evicted one by one)
            for (index, ticket) in tickets.enumerated() {
                cache.finish(ticket, with: .result(.int(index), id: .number(1)))
            }
            #expect(cache.count <= 1000)
            // And a single copy is a retry of the first entry still remembered
            guard case .finished(let response?) = cache.begin(sameRequest(1)[0]) else {
                Issue.record("a single copy was not answered from the cache")
                return
            }
            #expect(response.outcome == .success(.int(size - 1000)))
            // And the whole batch again: the remembered ones answer, the rest run anew
            let again = cache.begin(batch)
            #expect(again.count == size)
            // Then once the retention has passed, everything finished is forgotten
            clock.advance(by: .seconds(31))
            _ = cache.begin(RPCRequest(id: .number(2), method: "x"))
            #expect(cache.count < size)
        }
    }

    @Test func aLargeGroupOfDistinctContentsSharingOneIdIsEvictedInLinearTime() async throws {
        let cache = ResponseCache(clock: ManualClock(), retention: .seconds(30), limit: 1000)
        let size = 30_000
        try await withDeadline(.seconds(20), "30,000 same-id entries of distinct content finished and evicted") {
            // Given one message with 30,000 requests sharing one id, each with its own params
            let batch = (0..<size).map { RPCRequest(id: .number(1), method: "x", params: [.int($0)]) }
            let tickets = cache.begin(batch).compactMap { lookup -> ResponseCache.Ticket? in
                if case .new(let ticket) = lookup { ticket } else { nil }
            }
            #expect(tickets.count == size)
            // When every run finishes, past the limit of 1,000: 29,000 are evicted one by one from the group
            for (index, ticket) in tickets.enumerated() { cache.finish(ticket, with: .result(.int(index), id: .number(1))) }
            #expect(cache.count == 1000)
            // Then the newest are answered from the cache, the oldest run again
            guard case .finished = cache.begin(batch[size - 1]) else {
                Issue.record("the newest entry was forgotten")
                return
            }
        }
    }

    @Test func manySingleRetriesOfALargeGroupCostOnePerRetry() async throws {
        let cache = ResponseCache(clock: ManualClock(), retention: .seconds(30), limit: 100_000)
        try await withDeadline(.seconds(20), "20,000 single retries of a 20,000-entry group") {
            // Given a group of 20,000 equal requests with one id, all finished
            let lookups = cache.begin(sameRequest(20_000))
            for case .new(let ticket) in lookups { cache.finish(ticket, with: .result(1, id: .number(1))) }
            // When a single copy arrives 20,000 times, each answered from the cache
            for _ in 0..<20_000 {
                guard case .finished = cache.begin(sameRequest(1)[0]) else {
                    Issue.record("a retry ran again")
                    return
                }
            }
            // And requests with that id and other content replace the group, one at a time
            for n in 0..<20_000 {
                _ = cache.begin(RPCRequest(id: .number(1), method: "x", params: [.int(n + 2)]))
            }
            #expect(cache.count == 1)
        }
    }
}
