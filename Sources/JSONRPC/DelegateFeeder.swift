import SignalingSupport

/// The delegate face of a client (DESIGN §2): the delegate, held weakly, and the task that feeds it the client's
/// events from the moment it was set. The delegate is just one more subscriber of the client's multicast events;
/// every client with a delegate face keeps one of these. `Delegate` is a class-bound delegate protocol's
/// existential (`any RoomClientDelegate`); an existential does not satisfy an `AnyObject` constraint, so the slot
/// holds the object weakly as `AnyObject` and casts it back.
package final class DelegateFeeder<Delegate: Sendable>: Sendable {
    private struct Slot {
        weak var object: AnyObject?
        var feeder: Task<Void, Never>?
    }

    private let slot = LockedValue(Slot())

    /// Creates a feeder without a delegate.
    package init() {}

    /// The delegate; nil when none was set or it was released.
    package var delegate: Delegate? { slot.withLock { $0.object } as? Delegate }

    /// Makes `delegate` the delegate, stopping the previous one's feed. A non-nil delegate gets each event of
    /// `subscribe()` (called now, so it sees events from this moment on) through `deliver`, one at a time, until
    /// the sequence ends, the delegate is replaced or released, or `deliver` returns false (its client is gone).
    /// A sequence that fails (a subscriber that fell behind) is reported to `failed`.
    package func set<Events: AsyncSequence & Sendable>(
        _ delegate: Delegate?, subscribe: () -> Events,
        deliver: @escaping @Sendable (Events.Element, Delegate) -> Bool,
        failed: @escaping @Sendable (any Error) -> Void
    ) {
        let feeder = delegate.map { _ in
            let events = subscribe()
            return Task { [weak self] in
                do {
                    for try await event in events {
                        guard let self, let delegate = self.delegate, deliver(event, delegate) else { return }
                    }
                } catch {
                    failed(error)
                }
            }
        }
        let previous = slot.withLock { s -> Task<Void, Never>? in
            defer { s = Slot(object: delegate.map { $0 as AnyObject }, feeder: feeder) }
            return s.feeder
        }
        previous?.cancel()
    }

    /// Stops the feed (the client is going away).
    package func stop() { slot.withLock { $0.feeder }?.cancel() }
}
