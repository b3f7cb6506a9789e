import Dispatch
import Synchronization

/// The production ``SignalingClock``: monotonic time (`ContinuousClock`) and Dispatch timers.
public struct SystemClock: SignalingClock {
    private static let origin = ContinuousClock.now

    /// Creates the system clock. All instances share one origin, so their instants compare.
    public init() {}

    public var now: ClockInstant { ClockInstant(offset: ContinuousClock.now - Self.origin) }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any TimerHandle {
        let timer = DispatchTimerHandle(action: action)
        let nanos = max(0, delay.components.seconds) * 1_000_000_000 + max(0, delay.components.attoseconds / 1_000_000_000)
        let (deadline, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(UInt64(clamping: nanos))
        SystemTimerQueue.shared.schedule(timer, at: overflow ? UInt64.max : deadline)
        return timer
    }
}

/// A one-shot action that can be disarmed before it fires.
final class DispatchTimerHandle: TimerHandle {
    private let action: LockedValue<(@Sendable () -> Void)?>
    /// Set once the action has been taken to run or dropped: read without the lock, so that the timer queue can
    /// sweep thousands of handles cheaply. It only ever goes from false to true.
    private let settled = Atomic<Bool>(false)

    init(action: @escaping @Sendable () -> Void) { self.action = LockedValue(action) }

    func fire() {
        let run = action.withLock { a -> (@Sendable () -> Void)? in defer { a = nil }; return a }
        settled.store(true, ordering: .relaxed)
        run?()
    }

    func cancel() {
        action.withLock { $0 = nil }
        settled.store(true, ordering: .relaxed)
    }

    /// Whether the action has neither run nor been cancelled; may lag a concurrent `fire()` or `cancel()` by a
    /// moment (the queue then keeps the entry a little longer; `fire()` itself never runs a dropped action).
    var isPending: Bool { !settled.load(ordering: .relaxed) }
}
