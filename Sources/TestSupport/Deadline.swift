import Foundation
import SignalingSupport

/// A test waited longer than its deadline for something to happen.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    /// What was awaited.
    public var what: String
    /// The deadline.
    public var timeout: Duration
    public var description: String { "waited \(timeout) for \(what)" }
    /// Creates the error for `what`, awaited for `timeout`.
    public init(what: String, timeout: Duration) {
        self.what = what
        self.timeout = timeout
    }
}

/// Runs `body`, failing with ``DeadlineExceeded`` when it takes longer than `timeout`. Tests synchronize on events
/// through this instead of sleeping (docs/testing.md#deadlines); `body` must respond to task cancellation.
public func withDeadline<T: Sendable>(
    _ timeout: Duration = .seconds(10), _ what: String = "an event",
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout * deadlineScale)
            throw DeadlineExceeded(what: what, timeout: timeout * deadlineScale)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Runs `body` in a task of its own and waits at most `timeout` for it to return, failing with ``DeadlineExceeded``
/// otherwise. Unlike ``withDeadline(_:_:_:)``, `body` need not respond to cancellation: for operations that must end
/// on their own (a shutdown), so that a test of one fails instead of hanging. A body that overruns is left running.
public func returnsWithin(
    _ timeout: Duration = .seconds(10), _ what: String, _ body: @escaping @Sendable () async -> Void
) async throws {
    let (returned, signal) = AsyncStream<Void>.makeStream()
    Task {
        await body()
        signal.yield()
    }
    try await withDeadline(timeout, what) {
        for await _ in returned { return }
    }
}

/// Waits until `condition` holds, checking after each scheduler turn, for at most `timeout`. For states that have
/// no event to await (a timer registered, a counter reached).
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(10), _ condition: @escaping @Sendable () -> Bool
) async throws {
    try await waitUntil(what, timeout: timeout, asyncCondition: { condition() })
}

/// ``waitUntil(_:timeout:_:)`` for a condition that must be read asynchronously (e.g. on an event loop).
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(10), asyncCondition condition: @escaping @Sendable () async -> Bool
) async throws {
    let start = ContinuousClock.now
    while !(await condition()) {
        if ContinuousClock.now - start > timeout * deadlineScale {
            throw DeadlineExceeded(what: what, timeout: timeout * deadlineScale)
        }
        await Task.yield()
        try await Task.sleep(for: .microseconds(200))
    }
}

/// Whether this run is CI (`CI=true`): missing tools and corpora fail instead of skipping (docs/testing.md#witnesses).
public var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

/// Multiplies every deadline: sanitizer runs (`make tsan`, `make asan`) are several times slower, so they set
/// `KS_DEADLINE_SCALE`. Deadlines only bound waiting for events that must happen; they never time a result.
public let deadlineScale: Int = {
    Int(ProcessInfo.processInfo.environment["KS_DEADLINE_SCALE"] ?? "") ?? 1
}()
