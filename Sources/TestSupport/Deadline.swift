import Foundation

/// The error a test gets when something it waited for did not happen in time.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let what: String
    public let after: Duration
    public init(what: String, after: Duration) {
        self.what = what
        self.after = after
    }
    public var description: String { "timed out after \(after) waiting for \(what)" }
}

/// Runs `operation`, failing with ``DeadlineExceeded`` if it takes longer than `limit`. Tests synchronize on
/// events with a deadline, never on sleeps (DESIGN §7).
public func withDeadline<T: Sendable>(
    _ limit: Duration = .seconds(10), _ what: String = "operation",
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw DeadlineExceeded(what: what, after: limit)
        }
        return value
    }
}

/// Polls `condition` (yielding between checks) until it holds, failing after `limit`. For state that has no
/// event to await, such as a counter maintained by another thread.
public func waitUntil(
    _ what: String, limit: Duration = .seconds(10), _ condition: @escaping @Sendable () async -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while !(await condition()) {
        if clock.now > deadline { throw DeadlineExceeded(what: what, after: limit) }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// Whether this run is CI (`CI=true`): missing tools and corpora fail instead of skipping (DESIGN §7).
public var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
