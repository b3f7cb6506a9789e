import SignalingSupport

/// The handlers one connection runs at once.
///
/// - At most `limit` run together: ``start(deadline:clock:expired:_:)`` suspends its caller (the connection's
///   receive loop) at the limit, so the connection stops reading and the transport's backpressure engages,
///   instead of work piling up without bound.
/// - Each job may have a deadline: when it passes, `expired` runs (the caller answers for the job), the job's
///   task is cancelled, and its slot is free again whether or not the job ever returns.
/// - ``cancelAll()`` cancels every job; ``waitUntilIdle()`` waits for the jobs that still hold a slot.
final class InFlightWork: Sendable {
    private struct State {
        /// Jobs holding a slot (started, neither returned nor expired).
        var running = 0
        var tasks: [UInt64: Task<Void, Never>] = [:]
        /// Jobs that returned before their task was recorded.
        var returnedEarly: Set<UInt64> = []
        var next: UInt64 = 0
        var slotWaiter: CheckedContinuation<Void, Never>?
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var cancelled = false
    }

    /// The most jobs that run at once.
    let limit: Int
    private let state = LockedValue(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// The number of jobs holding a slot.
    var running: Int { state.withLock { $0.running } }

    /// Waits for a free slot (one caller at a time: the receive loop), then runs `body` in a task of its own.
    func start(deadline: Duration? = nil, clock: any SignalingClock, expired: (@Sendable () -> Void)? = nil,
               _ body: @escaping @Sendable () async -> Void) async {
        await acquireSlot()
        let id = state.withLock { s -> UInt64 in
            s.next += 1
            return s.next
        }
        let released = OneShot<Void>()
        let timer = deadline.map { delay in
            clock.schedule(after: delay) { [weak self] in
                guard released.fulfill(()) else { return }
                expired?()
                self?.release(id, returned: false)
            }
        }
        let task = Task {
            await body()
            timer?.cancel()
            if released.fulfill(()) { self.release(id, returned: true) } else { self.forget(id) }
        }
        let cancelNow = state.withLock { s -> Bool in
            if s.returnedEarly.remove(id) == nil { s.tasks[id] = task }
            return s.cancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels every job, running or expired-but-not-returned, and every later one.
    func cancelAll() {
        let tasks = state.withLock { s -> [Task<Void, Never>] in
            s.cancelled = true
            return Array(s.tasks.values)
        }
        for task in tasks { task.cancel() }
    }

    /// Returns once no job holds a slot (expired jobs that never return are not waited for).
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { s -> Bool in
                if s.running == 0 { return true }
                s.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func acquireSlot() async {
        let free = state.withLock { s -> Bool in
            guard s.running < limit else { return false }
            s.running += 1
            return true
        }
        if free { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.running < limit {
                    s.running += 1
                    return true
                }
                s.slotWaiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Frees job `id`'s slot (its task is forgotten only once it returned); the slot goes to the waiting caller.
    private func release(_ id: UInt64, returned: Bool) {
        let (slotWaiter, idleWaiters, task) = state.withLock { s in
            var task: Task<Void, Never>?
            if returned { forget(id, in: &s) } else { task = s.tasks[id] }
            if let waiter = s.slotWaiter {
                s.slotWaiter = nil
                return (Optional(waiter), [CheckedContinuation<Void, Never>](), task)  // the slot passes on
            }
            s.running -= 1
            guard s.running == 0 else { return (nil, [], task) }
            defer { s.idleWaiters = [] }
            return (nil, s.idleWaiters, task)
        }
        task?.cancel()
        slotWaiter?.resume()
        for waiter in idleWaiters { waiter.resume() }
    }

    /// A job whose slot was freed at its deadline has returned.
    private func forget(_ id: UInt64) { state.withLock { forget(id, in: &$0) } }

    private func forget(_ id: UInt64, in s: inout State) {
        if s.tasks.removeValue(forKey: id) == nil { s.returnedEarly.insert(id) }
    }
}
