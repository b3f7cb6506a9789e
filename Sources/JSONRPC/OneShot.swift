import SignalingSupport

/// A value delivered exactly once to any number of waiters: the first ``fulfill(_:)`` wins, later ones are
/// ignored. This is what makes "every request completes exactly once" hold however many paths race to
/// complete it (response, timeout, cancel, drop).
package final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case pending([CheckedContinuation<Value, Never>])
        case done(Value)
    }
    private let state = LockedValue(State.pending([]))

    package init() {}

    /// Delivers `value` unless a value was already delivered. Returns whether this call delivered it.
    @discardableResult
    package func fulfill(_ value: Value) -> Bool {
        let waiters = state.withLock { s -> [CheckedContinuation<Value, Never>]? in
            guard case .pending(let waiters) = s else { return nil }
            s = .done(value)
            return waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// The delivered value, if any yet.
    package var current: Value? { state.withLock { if case .done(let v) = $0 { v } else { nil } } }

    /// Waits for the value.
    package func wait() async -> Value {
        // Already fulfilled (a reply that overtook its sender's resumption): no suspension, so no thread hop.
        if let value = current { return value }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { s -> Value? in
                switch s {
                case .pending(var waiters):
                    waiters.append(continuation)
                    s = .pending(waiters)
                    return nil
                case .done(let value):
                    return value
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
