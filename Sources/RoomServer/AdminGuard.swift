import SignalingSupport

/// Keeps the admin token's door (docs/operations.md#the-admin-token): how many wrong tokens each peer address has
/// presented, and the dashboard's login sessions. Thread-safe; every call is a few dictionary operations under one
/// lock, so the upgrade filter may call it on the transport's service thread.
final class AdminGuard: Sendable {
    /// What a presented credential earns.
    enum Verdict: Equatable {
        /// The admin token, or a live session.
        case granted
        /// No credential, or a wrong one.
        case denied
        /// The address has presented too many wrong tokens: nothing it presents is looked at for this long.
        case lockedOut(Duration)
    }

    private struct Failures {
        var count = 0
        var last: ClockInstant
        var lockedUntil: ClockInstant?
    }

    private struct State {
        var failures: [String: Failures] = [:]
        /// Session id → when it ends.
        var sessions: [String: ClockInstant] = [:]
    }

    /// The most peer addresses whose failures are remembered; past it, those not locked out are forgotten first.
    static let maxTrackedAddresses = 10_000
    /// The most live login sessions; past it, the one that ends first is ended.
    static let maxSessions = 64

    private let limit: AdminGuessLimit
    private let sessionLifetime: Duration
    private let clock: any SignalingClock
    private let state = LockedValue(State())

    init(limit: AdminGuessLimit, sessionLifetime: Duration, clock: any SignalingClock) {
        self.limit = limit
        self.sessionLifetime = sessionLifetime
        self.clock = clock
    }

    /// Checks `token` from `address` with `isToken`, unless the address is locked out. Counts a wrong token against
    /// the address (no token at all costs nothing), and forgets the address's failures on the right one.
    func authorize(_ token: String?, from address: String, isToken: (String) -> Bool) -> Verdict {
        let now = clock.now
        return state.withLock { state in
            if let until = state.failures[address]?.lockedUntil, now < until { return .lockedOut(until - now) }
            guard let token else { return .denied }
            if isToken(token) {
                state.failures[address] = nil
                return .granted
            }
            var failures = state.failures[address] ?? Failures(last: now)
            if now - failures.last >= limit.forgetAfter { failures.count = 0 }
            failures.count += 1
            failures.last = now
            if failures.count > limit.freeFailures {
                let doublings = min(failures.count - limit.freeFailures - 1, 30)
                failures.lockedUntil = now + min(limit.firstLockout * (1 << doublings), limit.longestLockout)
            }
            if state.failures[address] == nil, state.failures.count >= Self.maxTrackedAddresses {
                state.failures = state.failures.filter { ($0.value.lockedUntil ?? now) > now }
                if state.failures.count >= Self.maxTrackedAddresses, let any = state.failures.keys.first {
                    state.failures[any] = nil
                }
            }
            state.failures[address] = failures
            return .denied
        }
    }

    /// A new login session, live for the session lifetime; its id (128 random bits, hex).
    func openSession() -> String {
        let id = SecureID.hex(), now = clock.now
        state.withLock { state in
            state.sessions = state.sessions.filter { $0.value > now }
            if state.sessions.count >= Self.maxSessions, let first = state.sessions.min(by: { $0.value < $1.value }) {
                state.sessions[first.key] = nil
            }
            state.sessions[id] = now + sessionLifetime
        }
        return id
    }

    /// Whether `id` is a live session.
    func isSession(_ id: String) -> Bool {
        let now = clock.now
        return state.withLock { ($0.sessions[id] ?? now) > now }
    }

    /// Ends the session `id`, if it is one.
    func closeSession(_ id: String) {
        state.withLock { $0.sessions[id] = nil }
    }
}
