import Testing
import TestSupport

/// The tests' own deadline: it must end a wait at its time whatever is awaited, or a hung test hides the failure.
@Suite struct DeadlineTests {
    @Test func aBodyThatIgnoresCancellationFailsAtTheDeadlineInsteadOfHangingTheTest() async throws {
        // A task that ends only when released: `await task.value` does not respond to the waiter's cancellation.
        let (release, released) = AsyncStream<Void>.makeStream()
        let stubborn = Task { for await _ in release { return } }
        defer { released.finish() }
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(200), "a task that ignores cancellation") { await stubborn.value }
        }
    }

    @Test func aBodyThatEndsFirstGivesItsResultOrError() async throws {
        let value = try await withDeadline(.seconds(10), "a value") { 42 }
        #expect(value == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await withDeadline(.seconds(10), "an error") { throw Refused() } }
    }

    @Test func cancellingTheWaiterCancelsTheBody() async throws {
        let (started, start) = AsyncStream<Void>.makeStream()
        let waiter = Task {
            try await withDeadline(.seconds(60), "a body that sleeps") {
                start.yield()
                try await Task.sleep(for: .seconds(3600))
            }
        }
        for await _ in started { break }
        waiter.cancel()
        await #expect(throws: CancellationError.self) {
            try await withDeadline(.seconds(10), "the cancelled waiter") { try await waiter.value }
        }
    }
}
