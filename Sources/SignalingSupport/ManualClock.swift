/// A ``SignalingClock`` that moves only when told to: the test clock of docs/architecture.md#time.
///
/// Timers fire synchronously inside ``advance(by:)``, in deadline order (ties in scheduling order), on the
/// caller's thread. A timer scheduled by a firing action runs in the same call if its deadline has come.
public final class ManualClock: SignalingClock, @unchecked Sendable {
    // @unchecked: all mutable state lives in `state`, a LockedValue.
    private struct Entry {
        let deadline: ClockInstant
        let sequence: UInt64
        let action: @Sendable () -> Void
    }
    private struct State {
        var now = ClockInstant(offset: .zero)
        var nextSequence: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
    }
    private let state = LockedValue(State())

    /// Creates a clock at instant zero.
    public init() {}

    public var now: ClockInstant { state.withLock { $0.now } }

    /// The number of timers scheduled and not yet fired or cancelled.
    public var pendingTimers: Int { state.withLock { $0.entries.count } }

    /// The earliest pending deadline, if any.
    public var nextDeadline: ClockInstant? { state.withLock { $0.entries.values.map(\.deadline).min() } }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any TimerHandle {
        let sequence = state.withLock { s -> UInt64 in
            let seq = s.nextSequence
            s.nextSequence += 1
            s.entries[seq] = Entry(deadline: s.now + max(delay, .zero), sequence: seq, action: action)
            return seq
        }
        return ManualTimerHandle(clock: self, sequence: sequence)
    }

    /// Moves time forward by `duration`, firing every timer whose deadline is reached, in order.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now + duration }
        advance(to: target)
    }

    /// Moves time forward to `instant` (never backwards), firing due timers in order.
    public func advance(to instant: ClockInstant) {
        while true {
            let due = state.withLock { s -> Entry? in
                guard let next = s.entries.values.min(by: { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }),
                      next.deadline <= instant
                else {
                    if s.now < instant { s.now = instant }
                    return nil
                }
                s.entries[next.sequence] = nil
                if s.now < next.deadline { s.now = next.deadline }
                return next
            }
            guard let due else { return }
            due.action()
        }
    }

    fileprivate func cancel(_ sequence: UInt64) {
        state.withLock { _ = $0.entries.removeValue(forKey: sequence) }
    }
}

private struct ManualTimerHandle: TimerHandle {
    let clock: ManualClock
    let sequence: UInt64
    func cancel() { clock.cancel(sequence) }
}
