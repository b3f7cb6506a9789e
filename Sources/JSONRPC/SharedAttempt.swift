import SignalingSupport

/// One piece of work that several callers wait for (the client's connect attempt), where each caller's
/// cancellation is honoured at once: a cancelled caller stops waiting with ``RPCError/cancelled``, and the work
/// itself is cancelled only when no caller waits for it any more.
final class SharedAttempt: Sendable {
    private struct State {
        var outcome: Result<Void, any Error>?
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var next: UInt64 = 0
    }
    private let state = LockedValue(State())
    private let task = LockedValue<Task<Void, Never>?>(nil)

    /// Starts `work` at once.
    init(_ work: @escaping @Sendable () async throws -> Void) {
        let task = Task { [state] in
            let outcome: Result<Void, any Error>
            do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
            let waiters = state.withLock { s in
                s.outcome = outcome
                defer { s.waiters = [:] }
                return Array(s.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: outcome) }
        }
        self.task.withLock { $0 = task }
    }

    /// The callers waiting now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Waits for the work's outcome; throws ``RPCError/cancelled`` as soon as the calling task is cancelled.
    func wait() async throws {
        let key = state.withLock { s -> UInt64 in
            s.next += 1
            return s.next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (ready, abandon) = state.withLock { s -> (Result<Void, any Error>?, Bool) in
                    if let outcome = s.outcome { return (outcome, false) }
                    // Cancelled before it could wait: it counts as a waiter that left at once.
                    if Task.isCancelled { return (.failure(RPCError.cancelled), s.waiters.isEmpty) }
                    s.waiters[key] = continuation
                    return (nil, false)
                }
                if abandon { task.withLock { $0 }?.cancel() }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let (waiter, last) = state.withLock { s -> (CheckedContinuation<Void, any Error>?, Bool) in
                let waiter = s.waiters.removeValue(forKey: key)
                return (waiter, waiter != nil && s.waiters.isEmpty && s.outcome == nil)
            }
            waiter?.resume(throwing: RPCError.cancelled)
            if last { task.withLock { $0 }?.cancel() }
        }
    }
}
