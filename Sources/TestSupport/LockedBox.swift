import SignalingSupport

/// A small thread-safe box for test bookkeeping across tasks and threads.
public final class LockedBox<Value: Sendable>: Sendable {
    private let storage: LockedValue<Value>
    public init(_ value: Value) { storage = LockedValue(value) }
    /// The current value.
    public var value: Value { storage.withLock { $0 } }
    /// Mutates the value under the lock and returns what `body` returns.
    @discardableResult
    public func mutate<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }
}
