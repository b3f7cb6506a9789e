import SignalingSupport

/// A thread-safe counter for tests (handler runs, callbacks, cancellations).
public final class Counter: Sendable {
    private let value = LockedValue(0)

    /// Starts at 0.
    public init() {}

    /// Adds one.
    public func increment() { value.withLock { $0 += 1 } }

    /// The count now.
    public var count: Int { value.withLock { $0 } }
}
