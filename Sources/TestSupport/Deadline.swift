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
/// through this instead of sleeping (docs/testing.md#deadlines). It returns at the deadline whatever `body` does:
/// `body` runs in a task of its own, which is cancelled then (and when the caller is cancelled) and left to end on its
/// own, so that awaiting something that ignores cancellation (another task's `value`) fails the test instead of
/// hanging it.
public func withDeadline<T: Sendable>(
    _ timeout: Duration = .seconds(10), _ what: String = "an event",
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation, limit: timeout * deadlineScale, what: what, body: body)
        }
    } onCancel: {
        race.cancel()
    }
}

/// The body of ``withDeadline(_:_:_:)`` against its timer: whichever ends first resumes the caller, once.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var finished = false
        var cancelled = false
    }
    private let state = LockedValue(State())

    func start(
        _ continuation: CheckedContinuation<T, any Error>, limit: Duration, what: String,
        body: @escaping @Sendable () async throws -> T
    ) {
        state.withLock { $0.continuation = continuation }
        let work = Task {
            do { self.finish(.success(try await body())) } catch { self.finish(.failure(error)) }
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { self.finish(.failure(DeadlineExceeded(what: what, timeout: limit))) }
        }
        let (finished, cancelled) = state.withLock { state in
            state.work = work
            state.timer = timer
            return (state.finished, state.cancelled)
        }
        if finished { timer.cancel() }
        if finished || cancelled { work.cancel() }
    }

    /// The caller was cancelled: so is `body`; the caller resumes when `body` ends, or at the deadline.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.work
        }?.cancel()
    }

    private func finish(_ result: Result<T, any Error>) {
        let (continuation, work, timer) = state.withLock { state in
            defer { state.continuation = nil }
            state.finished = true
            return (state.continuation, state.work, state.timer)
        }
        guard let continuation else { return }
        work?.cancel()
        timer?.cancel()
        continuation.resume(with: result)
    }
}

/// Waits at most `timeout` for `body` to return, failing with ``DeadlineExceeded`` otherwise: for operations that
/// must end on their own (a shutdown), so that a test of one fails instead of hanging. A body that overruns is left
/// running. The same as ``withDeadline(_:_:_:)``, named for what such a test asserts.
public func returnsWithin(
    _ timeout: Duration = .seconds(10), _ what: String, _ body: @escaping @Sendable () async -> Void
) async throws {
    try await withDeadline(timeout, what) { await body() }
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
