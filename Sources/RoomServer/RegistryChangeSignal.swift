import SignalingSupport

/// How ``RoomRegistry`` tells the `/admin` feed that what an operator sees changed
/// (docs/operations.md#admin-subscription). The registry fires it under its lock, so the observer must be short, must not block and must never take the
/// registry's lock (``AdminFeed/changed()`` only marks and arms a timer).
final class RegistryChangeSignal: Sendable {
    private let observer = LockedValue<(@Sendable () -> Void)?>(nil)

    /// Sets the one observer, replacing any earlier one.
    func observe(_ body: @escaping @Sendable () -> Void) {
        observer.withLock { $0 = body }
    }

    /// Tells the observer, if any.
    func fire() {
        observer.withLock { $0 }?()
    }
}
