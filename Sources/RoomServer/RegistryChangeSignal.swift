import SignalingSupport

/// How ``RoomRegistry`` tells the `/admin` feed that what an operator sees changed
/// (docs/operations.md#admin-subscription). The registry fires it under its lock, so the observer must be short, must not block and must never take the
/// registry's lock (``AdminFeed/changed()`` only marks and arms a timer).
final class RegistryChangeSignal: Sendable {
    /// The observer inside a struct, never as the lock's value itself: a closure that is `LockedValue`'s generic
    /// value is reabstracted on the way into `withLock`'s inout and back, so each ``fire()`` stored it wrapped in
    /// two more thunks. After 10,000 joins and leaves a call went 8,000 frames deep, the leave storm of
    /// `make bench`'s scale row spent three quarters of the server's CPU in those thunks, and the stack would
    /// have overflowed (`RegistryChangeSignalTests`).
    private struct Observer { let body: @Sendable () -> Void }
    private let observer = LockedValue<Observer?>(nil)

    /// Sets the one observer, replacing any earlier one.
    func observe(_ body: @escaping @Sendable () -> Void) {
        observer.withLock { $0 = Observer(body: body) }
    }

    /// Tells the observer, if any.
    func fire() {
        observer.withLock { $0 }?.body()
    }
}
