import SignalingSupport

/// A barrier that tasks (e.g. server handlers) wait on until the test opens it; once open it stays open.
public final class Gate: Sendable {
    private let state = LockedValue<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Creates a closed gate.
    public init() {}

    /// Returns once the gate is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { s -> Bool in
                if s.open { return true }
                s.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Opens the gate: every waiter goes on, and later waits return at once.
    public func open() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
