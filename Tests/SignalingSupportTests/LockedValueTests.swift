import Foundation
import SignalingSupport
import Testing

@Suite struct LockedValueTests {
    /// A lock that guards no value of its own (`LockedValue(())`, as the KMS double's send lock) serializes its
    /// callers. Under `make tsan` this is also the race check: with the empty value at the mutex's address,
    /// ThreadSanitizer reported every contended call (the KMS double's report in a `make tsan` run).
    @Test func anEmptyLockSerializesCallersOnManyThreads() throws {
        final class Counter: @unchecked Sendable {
            // @unchecked: `count` is only touched inside `lock.withLock`.
            let lock = LockedValue(())
            var count = 0
        }
        let counter = Counter()
        let threads = 4, rounds = 20_000
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread {
                for _ in 0..<rounds { counter.lock.withLock { _ in counter.count += 1 } }
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(counter.lock.withLock { _ in counter.count } == threads * rounds)
    }

    /// A value and its lock: every caller's change is kept.
    @Test func aValueKeepsEveryCallersChange() async throws {
        let total = LockedValue(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<1_000 { total.withLock { $0 += 1 } } } }
        }
        #expect(total.withLock { $0 } == 8_000)
    }
}
