@testable import JSONRPC
import SignalingSupport
import Testing

/// What the duplicate-detection cache remembers, and within which bytes (docs/wire-protocol.md#dedupe): a response
/// and its id count against the session's budget and the server's; -32601 and -32602 are not remembered; an ended
/// session gives its bytes back.
@Suite struct ResponseCacheBudgetTests {
    private static let text = String(repeating: "r", count: 1000)

    /// Begins request `id` (new) and finishes it with a result of about 1 KB.
    private func run(_ id: Int, in cache: ResponseCache, response: RPCResponse? = nil) {
        guard case .new(let ticket) = cache.begin(RPCRequest(id: .number(id), method: "m", params: [.int(id)])) else {
            Issue.record("request \(id) was not new")
            return
        }
        cache.finish(ticket, with: response ?? .result(.string(Self.text), id: .number(id)))
    }

    /// Whether a copy of request `id` is answered from the cache.
    private func remembers(_ id: Int, in cache: ResponseCache) -> Bool {
        if case .finished = cache.begin(RPCRequest(id: .number(id), method: "m", params: [.int(id)])) { true } else { false }
    }

    @Test func eachSessionStaysWithinItsBudgetAndAllWithinTheServers() {
        // Given room for about 10 responses per session and 15 per server
        let budget = ResponseCacheBudget(perSession: 12_000, perServer: 18_000)
        let clock = ManualClock()
        let first = ResponseCache(clock: clock, retention: .seconds(30), limit: 1000, budget: budget)
        let second = ResponseCache(clock: clock, retention: .seconds(30), limit: 1000, budget: budget)

        // When a session finishes 100 requests with 1 KB responses
        for id in 0..<100 { run(id, in: first) }
        // Then it keeps only its newest, within its budget
        #expect(first.bytes <= 12_000)
        #expect(first.bytes > 10_000)
        #expect(remembers(99, in: first))
        #expect(!remembers(0, in: first))

        // When another session of the server does the same
        for id in 0..<100 { run(id, in: second) }
        // Then the two together stay within the server's budget: the second makes room in its own first, and
        // remembers what fits
        #expect(budget.bytes <= 18_000)
        #expect(budget.bytes == first.bytes + second.bytes)
        #expect(second.bytes > 0)

        // When the first session ends, its bytes are given back, and the second can remember more
        first.forgetAll()
        #expect(budget.bytes == second.bytes)
        for id in 100..<200 { run(id, in: second) }
        #expect(second.bytes > 10_000)
        #expect(budget.bytes == second.bytes)
    }

    @Test func aResponseLargerThanTheSessionsBudgetIsSentButNotRemembered() {
        let cache = ResponseCache(clock: ManualClock(), retention: .seconds(30), limit: 1000,
                                  budget: ResponseCacheBudget(perSession: 500, perServer: 1 << 20))
        run(1, in: cache)
        #expect(cache.bytes == 0)
        #expect(!remembers(1, in: cache))
    }

    @Test func unknownMethodsAndInvalidParamsAreNotRemembered() {
        let cache = ResponseCache(clock: ManualClock(), retention: .seconds(30), limit: 1000)
        run(1, in: cache, response: .error(.methodNotFound, id: .number(1)))
        run(2, in: cache, response: .error(.invalidParams("'x' is missing"), id: .number(2)))
        run(3, in: cache, response: .error(RPCErrorObject(code: 102, message: "not in a room"), id: .number(3)))
        #expect(!remembers(1, in: cache))
        #expect(!remembers(2, in: cache))
        #expect(remembers(3, in: cache))
    }

    @Test func entriesExpireAfterTheRetentionAndGiveTheirBytesBack() {
        let clock = ManualClock()
        let budget = ResponseCacheBudget(perSession: 1 << 20, perServer: 1 << 20)
        let cache = ResponseCache(clock: clock, retention: .seconds(30), limit: 1000, budget: budget)
        for id in 0..<10 { run(id, in: cache) }
        clock.advance(by: .seconds(20))
        for id in 10..<20 { run(id, in: cache) }
        clock.advance(by: .seconds(15))
        // The first ten are past the retention, the last ten not yet
        #expect(!remembers(0, in: cache))
        #expect(remembers(19, in: cache))
        #expect(cache.count == 11)  // ten remembered, and the copy of 0 that runs anew
        #expect(budget.bytes == cache.bytes)
    }
}
