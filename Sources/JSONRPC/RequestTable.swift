import HeapModule
import SignalingSupport

/// The requests an endpoint sent and that are not answered yet, with their deadlines and retries: a pure value,
/// no lock, no clock, no I/O (docs/architecture.md#exactly-once). Its owner (a ``JSONRPCClient``, a
/// ``ServerSession``) keeps it inside its one state lock and carries out what it returns
/// (``RequestTableOwner``).
///
/// - Each entry keeps the exact text that was sent, so a retry re-sends the *same id* with a doubled timeout, and
///   a resume can re-send every pending call as it was (``pendingCalls``).
/// - An entry is removed by whichever path completes it first (response, timeout, cancel, drop); only that path
///   fulfils the entry's ``OneShot``, so each request completes exactly once and a late or duplicate response finds
///   nothing.
/// - Deadlines sit in one heap and one timer serves them all, armed for the earliest: a call whose deadline is
///   not the earliest (every call, when they share one timeout) costs no timer at all. Deadlines of requests that
///   completed stay in the heap until they come up or the heap is compacted (past twice the live entries).
struct RequestTable: Sendable {
    typealias Outcome = Result<JSONValue, RPCError>
    /// Transmits one message text; called again for each retry.
    typealias Transmit = @Sendable (String) async throws -> Void

    /// Whose request an entry is.
    enum Kind: Sendable {
        /// A caller's: retried, re-sent after a resume.
        case call
        /// The endpoint's own (`ping`, `connect`): never retried, never re-sent, failed with its connection.
        case control
    }

    struct Entry: Sendable {
        let method: String
        let text: String
        let kind: Kind
        let transmit: Transmit
        let outcome: OneShot<Outcome>
        /// Runs on a successful outcome before the waiters resume (``JSONRPCClient/call(_:params:timeout:retries:applying:)``).
        let onSuccess: (@Sendable (JSONValue) -> Void)?
        let retries: Int
        /// The deadlines this request has had: the first, then one per retry.
        var attempts = 1
        /// How often its text went out: a retry that waits without re-sending (``expire(firedFor:now:resending:)``)
        /// does not count.
        var sends = 1
        var timeout: Duration
        var deadline: ClockInstant
    }

    /// What a deadline that passed asks the owner to do, outside its lock.
    enum Expiry: Sendable {
        /// Send the same text again (a retry, same id).
        case resend(String, Transmit)
        /// Complete the request with this error.
        case fail(OneShot<Outcome>, RPCError)
    }

    private struct Deadline: Comparable {
        let at: ClockInstant
        let id: RequestID
        let attempt: Int
        static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.at < rhs.at }
        static func == (lhs: Deadline, rhs: Deadline) -> Bool { lhs.at == rhs.at }
    }

    private(set) var entries: [RequestID: Entry] = [:]
    private var deadlines = Heap<Deadline>()
    /// The instant the owner's timer is armed for, and its handle once stored.
    private(set) var armedAt: ClockInstant?
    private var timer: (any TimerHandle)?

    /// Registers a request (before it is sent, so that a response arriving before the send returns finds it) and
    /// returns the instant the owner must arm its timer for, when this deadline is earlier than the armed one.
    mutating func register(_ id: RequestID, method: String, text: String, kind: Kind, timeout: Duration, retries: Int,
                           now: ClockInstant, onSuccess: (@Sendable (JSONValue) -> Void)? = nil,
                           transmit: @escaping Transmit) -> (OneShot<Outcome>, arm: ClockInstant?) {
        let outcome = OneShot<Outcome>()
        let deadline = now + timeout
        entries[id] = Entry(method: method, text: text, kind: kind, transmit: transmit, outcome: outcome,
                            onSuccess: onSuccess, retries: max(0, retries), timeout: timeout, deadline: deadline)
        deadlines.insert(Deadline(at: deadline, id: id, attempt: 1))
        if deadlines.count > 2 * entries.count + 64 { compact() }
        return (outcome, arm(for: deadline))
    }

    /// Takes the entry of `id` out if it is still pending. With `unlessApplying`, a success for an entry with an
    /// `onSuccess` (user code, which must run in wire order) is left pending. The caller runs `onSuccess` and
    /// fulfils the outcome outside the lock.
    mutating func complete(_ id: RequestID, succeeding: Bool, unlessApplying: Bool = false) -> Entry? {
        guard let entry = entries[id] else { return nil }
        if unlessApplying, succeeding, entry.onSuccess != nil { return nil }
        entries[id] = nil
        return entry
    }

    /// Takes every entry of `kind` (every entry, without one) out.
    mutating func removeAll(_ kind: Kind? = nil) -> [Entry] {
        guard let kind else {
            defer { entries = [:] }
            return Array(entries.values)
        }
        var taken: [Entry] = []
        for (id, entry) in entries where entry.kind == kind {
            taken.append(entry)
            entries[id] = nil
        }
        return taken
    }

    /// Whether `id` is pending.
    func contains(_ id: RequestID) -> Bool { entries[id] != nil }

    /// The ids of the pending calls (not control requests).
    var callIDs: [RequestID] { entries.compactMap { $0.value.kind == .call ? $0.key : nil } }

    /// Every pending call's id and exact text, for re-sending after a resume (docs/architecture.md#resume).
    var pendingCalls: [(id: RequestID, text: String)] {
        entries.compactMap { $0.value.kind == .call ? ($0.key, $0.value.text) : nil }
    }

    // MARK: - The one timer

    /// Keeps `handle`, the timer just scheduled for `at`, if that is still the instant wanted; returns what to cancel
    /// outside the lock (the replaced timer, or `handle` itself when it came too late).
    mutating func keepTimer(_ handle: any TimerHandle, for at: ClockInstant) -> (any TimerHandle)? {
        guard armedAt == at else { return handle }
        defer { timer = handle }
        return timer
    }

    /// The timer armed for `at` fired at `now`: every entry whose deadline passed is retried (a later deadline, twice
    /// the timeout) or failed. A retry of a call re-sends it only when `resending` (the peer dedupes, so the copy
    /// cannot run twice); otherwise it only waits longer. Returns what to do outside the lock and the instant to arm
    /// for next, if any; a timer that was superseded does nothing.
    mutating func expire(firedFor at: ClockInstant, now: ClockInstant,
                         resending: Bool = true) -> (actions: [Expiry], arm: ClockInstant?) {
        guard armedAt == at else { return ([], nil) }
        armedAt = nil
        timer = nil
        var actions: [Expiry] = []
        while let first = deadlines.min, first.at <= now {
            deadlines.removeMin()
            guard var entry = entries[first.id], entry.attempts == first.attempt else { continue }
            if entry.attempts <= entry.retries {
                entry.attempts += 1
                entry.timeout = entry.timeout * 2
                entry.deadline = now + entry.timeout
                if resending { entry.sends += 1 }
                entries[first.id] = entry
                deadlines.insert(Deadline(at: entry.deadline, id: first.id, attempt: entry.attempts))
                if resending { actions.append(.resend(entry.text, entry.transmit)) }
            } else {
                entries[first.id] = nil
                actions.append(.fail(entry.outcome, .timeout(method: entry.method, attempts: entry.sends)))
            }
        }
        // Deadlines of completed requests need no wake-up.
        while let first = deadlines.min, entries[first.id]?.attempts != first.attempt { deadlines.removeMin() }
        guard let next = deadlines.min?.at else { return (actions, nil) }
        return (actions, arm(for: next))
    }

    /// Takes the timer out (the owner is going away, or nothing is pending any more).
    mutating func disarm() -> (any TimerHandle)? {
        armedAt = nil
        defer { timer = nil }
        return timer
    }

    private mutating func arm(for deadline: ClockInstant) -> ClockInstant? {
        if let armed = armedAt, armed <= deadline { return nil }
        armedAt = deadline
        return deadline
    }

    private mutating func compact() {
        deadlines = Heap(entries.map { Deadline(at: $0.value.deadline, id: $0.key, attempt: $0.value.attempts) })
    }
}

/// An endpoint that keeps a ``RequestTable`` inside its one state lock: what every owner does around it (register,
/// complete, fail, and the one timer), written once.
protocol RequestTableOwner: AnyObject, Sendable {
    /// Runs `body` on the table under the owner's lock.
    func withRequests<T>(_ body: (inout RequestTable) -> T) -> T
    /// The clock behind the deadlines.
    var requestClock: any SignalingClock { get }
    /// Whether a retry after a timeout re-sends the request (the peer dedupes ids), or only waits longer.
    var resendsOnTimeout: Bool { get }
}

extension RequestTableOwner {
    /// Re-sends by default: a server's requests to its client (``ServerSession``) are retried as configured.
    var resendsOnTimeout: Bool { true }

    /// Registers a request and arms the timer when its deadline is the earliest.
    func registerRequest(_ id: RequestID, method: String, text: String, kind: RequestTable.Kind = .call,
                         timeout: Duration, retries: Int, onSuccess: (@Sendable (JSONValue) -> Void)? = nil,
                         transmit: @escaping RequestTable.Transmit) -> OneShot<RequestTable.Outcome> {
        let now = requestClock.now
        let (outcome, arm) = withRequests {
            $0.register(id, method: method, text: text, kind: kind, timeout: timeout, retries: retries, now: now,
                        onSuccess: onSuccess, transmit: transmit)
        }
        if let arm { armRequestTimer(for: arm, now: now) }
        return outcome
    }

    /// Completes the request `id` with `outcome` if it is still pending; returns whether it was. With
    /// `unlessApplying`, a result for a request with `onSuccess` (user code) is left pending and false returned.
    @discardableResult
    func completeRequest(_ id: RequestID, with outcome: RequestTable.Outcome, unlessApplying: Bool = false) -> Bool {
        let succeeding = if case .success = outcome { true } else { false }
        guard let entry = withRequests({ $0.complete(id, succeeding: succeeding, unlessApplying: unlessApplying) }) else {
            return false
        }
        return Self.finish(entry, with: outcome)
    }

    /// Completes every pending request of `kind` (every one, without) with `error`; returns how many.
    @discardableResult
    func failRequests(_ kind: RequestTable.Kind? = nil, with error: RPCError) -> Int {
        let taken = withRequests { $0.removeAll(kind) }
        Self.fail(taken, with: error)
        return taken.count
    }

    /// Completes `entries`, already taken out of the table (under the owner's lock, with whatever else had to
    /// change in that step), with `error`.
    static func fail(_ entries: [RequestTable.Entry], with error: RPCError) {
        for entry in entries { entry.outcome.fulfill(.failure(error)) }
    }

    /// Runs an entry's `onSuccess` and fulfils its outcome: what a path that took it out of the table does.
    @discardableResult
    static func finish(_ entry: RequestTable.Entry, with outcome: RequestTable.Outcome) -> Bool {
        if case .success(let result) = outcome { entry.onSuccess?(result) }
        return entry.outcome.fulfill(outcome)
    }

    /// Schedules the timer for `at` outside the lock (the clock may be the user's) and keeps it if still wanted.
    func armRequestTimer(for at: ClockInstant, now: ClockInstant) {
        let handle = requestClock.schedule(after: max(.zero, at - now)) { [weak self] in self?.requestTimerFired(for: at) }
        withRequests { $0.keepTimer(handle, for: at) }?.cancel()
    }

    private func requestTimerFired(for at: ClockInstant) {
        let now = requestClock.now
        let resending = resendsOnTimeout
        let (actions, next) = withRequests { $0.expire(firedFor: at, now: now, resending: resending) }
        if let next { armRequestTimer(for: next, now: now) }
        for action in actions {
            switch action {
            case .resend(let text, let transmit):
                // A failed re-send needs no handling here: the connection's end fails the entry (or its next deadline).
                Task { try? await transmit(text) }
            case .fail(let outcome, let error):
                outcome.fulfill(.failure(error))
            }
        }
    }
}
