import DequeModule
import SignalingSupport

/// The handlers one connection runs at once.
///
/// - At most `limit` run together: ``start(_:finished:expired:)`` suspends its caller (the connection's receive
///   loop) at the limit, so the connection stops reading and the transport's backpressure engages, instead of
///   work piling up without bound.
/// - Jobs may have a deadline (all the same, `timeout`, so they expire in start order): when it passes, the job's
///   `expired` runs instead of its `finished`, its task is cancelled, and its slot is free again whether or not
///   the job ever returns. One timer per connection, armed at the oldest deadline, serves them all (no timer per
///   request).
/// - Exactly one of `finished` and `expired` runs for each job, outside the lock.
/// - A job may claim its outcome before it commits what it does (``Claim/commit()``, through
///   ``RPCRequestContext/claimCompletion()``): atomically, the claim fails if the job expired (its caller is told
///   -32001) and otherwise takes the job off the deadline, so that a commit and a deadline answer never both happen.
/// - ``cancelAll()`` cancels every job; ``waitUntilIdle()`` waits for the jobs that still hold a slot. The deadline
///   still applies after cancellation: a cancelled job that does not return (it ignores cancellation) frees its slot
///   at its deadline like any other, so ``waitUntilIdle()`` never waits for it past that (docs/architecture.md#shutdown).
final class InFlightWork: Sendable {
    /// `committed`: the job claimed its outcome (``Claim/commit()``); the deadline no longer applies to it.
    private enum Phase { case running, committed, expired }
    private struct Job {
        var task: Task<Void, Never>?
        var phase: Phase
        let expired: (@Sendable () -> Void)?
    }
    private struct State {
        /// Jobs holding a slot (started, neither returned nor expired).
        var running = 0
        var jobs: [UInt64: Job] = [:]
        var next: UInt64 = 0
        /// Deadlines in start order (they only grow: one timeout, one clock).
        var deadlines = Deque<(id: UInt64, at: ClockInstant)>()
        var timer: (any TimerHandle)?
        var slotWaiter: CheckedContinuation<Void, Never>?
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var cancelled = false
    }

    /// The most jobs that run at once.
    let limit: Int
    private let timeout: Duration?
    private let clock: any SignalingClock
    private let state = LockedValue(State())

    init(limit: Int, timeout: Duration?, clock: any SignalingClock) {
        self.limit = max(1, limit)
        self.timeout = timeout
        self.clock = clock
    }

    /// Waits for a free slot (one caller at a time: the receive loop), then runs `body` in a task of its own that
    /// prefers `executor` (nil: the global concurrent one), under the deadline when `expired` is given. `finished`
    /// gets what `body` returned, unless the deadline passed first.
    func start<T: Sendable>(_ body: @escaping @Sendable () async -> T, on executor: (any TaskExecutor)? = nil,
                            finished: @escaping @Sendable (T) -> Void, expired: (@Sendable () -> Void)? = nil) async {
        await acquireSlot()
        let deadline = expired == nil ? nil : timeout.map { clock.now + $0 }
        let (id, arm) = state.withLock { s -> (UInt64, Duration?) in
            s.next += 1
            s.jobs[s.next] = Job(task: nil, phase: .running, expired: expired)
            guard let deadline else { return (s.next, nil) }
            // Deadlines of jobs that returned are dropped now and then, so the queue tracks the jobs in flight
            // (at most `limit` running, plus those expired and not returned), not the request rate.
            if s.deadlines.count >= 2 * s.jobs.count + 64 {
                let jobs = s.jobs
                s.deadlines.removeAll { jobs[$0.id]?.phase != .running }
            }
            s.deadlines.append((s.next, deadline))
            return (s.next, s.timer == nil ? timeout : nil)
        }
        if let arm { armTimer(after: arm) }
        let task = Task(executorPreference: executor) {
            // Only a job under a deadline (or cancellable by `cancelAll`) needs its claim: every job with `expired`.
            let value: T
            if expired == nil {
                value = await body()
            } else {
                value = await Self.$current.withValue(Claim(work: self, id: id)) { await body() }
            }
            if self.returned(id) { finished(value) }
        }
        // The deadline's timer is armed before the task exists: a deadline that passed in between found no task to
        // cancel (its caller was told -32001 already), so the task is cancelled here.
        let cancelNow = state.withLock { s -> Bool in
            s.jobs[id]?.task = task  // (gone already if it returned at once)
            return s.cancelled || s.jobs[id]?.phase == .expired
        }
        if cancelNow { task.cancel() }
    }

    /// The job the current task runs for, when it has a deadline (what ``RPCRequestContext/claimCompletion()`` claims).
    @TaskLocal static var current: Claim?

    /// A job's right to claim its outcome.
    struct Claim: Sendable {
        let work: InFlightWork
        let id: UInt64

        /// Claims the job's outcome before its handler commits what it does: `false` when its deadline passed
        /// (its caller was told -32001) or every job was cancelled (the server stops): the handler must then undo
        /// what it did. `true` takes the job off the deadline: whatever it returns is its caller's answer. Claiming
        /// again answers the same.
        func commit() -> Bool { work.commit(id) }
    }

    private func commit(_ id: UInt64) -> Bool {
        state.withLock { s in
            guard var job = s.jobs[id] else { return false }
            switch job.phase {
            case .committed: return true
            case .expired: return false
            case .running:
                guard !s.cancelled else { return false }
                job.phase = .committed
                s.jobs[id] = job
                return true
            }
        }
    }

    /// Cancels every job, running or expired-but-not-returned, and every later one. The deadline timer goes on:
    /// a job that ignores its cancellation still expires at its deadline.
    func cancelAll() {
        let tasks = state.withLock { s -> [Task<Void, Never>] in
            s.cancelled = true
            return s.jobs.values.compactMap(\.task)
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

    /// Job `id` returned; whether it was still running (so its `finished` runs).
    private func returned(_ id: UInt64) -> Bool {
        let (wasRunning, waiters) = state.withLock { s -> (Bool, Waiters) in
            guard let job = s.jobs.removeValue(forKey: id), job.phase != .expired else { return (false, Waiters()) }
            return (true, freeSlot(&s))
        }
        waiters.resume()
        return wasRunning
    }

    /// The timer: expires every job whose deadline passed, then re-arms for the next one.
    private func expireDue() {
        let now = clock.now
        var due: [(task: Task<Void, Never>?, expired: (@Sendable () -> Void)?)] = []
        let (waiters, next) = state.withLock { s -> (Waiters, Duration?) in
            s.timer = nil
            var waiters = Waiters()
            // (A committed job stays off the deadline: its handler's answer is the one its caller gets.)
            while let first = s.deadlines.first, first.at <= now || s.jobs[first.id]?.phase != .running {
                s.deadlines.removeFirst()
                guard var job = s.jobs[first.id], job.phase == .running else { continue }
                job.phase = .expired
                s.jobs[first.id] = job
                due.append((job.task, job.expired))
                waiters.merge(freeSlot(&s))
            }
            guard let first = s.deadlines.first else { return (waiters, nil) }
            return (waiters, first.at - now)
        }
        for job in due {
            job.expired?()
            job.task?.cancel()
        }
        waiters.resume()
        if let next { armTimer(after: next) }
    }

    private func armTimer(after delay: Duration) {
        let timer = clock.schedule(after: max(.zero, delay)) { [weak self] in self?.expireDue() }
        let stale = state.withLock { s -> Bool in
            guard s.timer == nil else { return true }
            s.timer = timer
            return false
        }
        if stale { timer.cancel() }
    }

    /// Who waits for a slot or for idleness, to resume outside the lock.
    private struct Waiters {
        var slot: CheckedContinuation<Void, Never>?
        var idle: [CheckedContinuation<Void, Never>] = []
        mutating func merge(_ other: Waiters) {
            slot = slot ?? other.slot
            idle += other.idle
        }
        func resume() {
            slot?.resume()
            for waiter in idle { waiter.resume() }
        }
    }

    /// Frees one slot: it passes to the waiting caller, or the count drops (and idle waiters go on at 0).
    private func freeSlot(_ s: inout State) -> Waiters {
        if let waiter = s.slotWaiter {
            s.slotWaiter = nil
            return Waiters(slot: waiter)
        }
        s.running -= 1
        guard s.running == 0 else { return Waiters() }
        defer { s.idleWaiters = [] }
        return Waiters(idle: s.idleWaiters)
    }
}
