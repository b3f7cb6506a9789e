package import Logging
import SignalingSupport

/// The delegate face of a client (docs/architecture.md#callbacks): the delegate, held weakly, and the task that feeds
/// it the client's events from the moment it was set. The delegate is one more subscriber of the client's multicast
/// events, one that never ends for falling behind (``LossReportingSubscription``): a delegate slower than the events
/// misses some, is told how many once (its `didLoseEvents` method), and goes on with the later ones. Every client with
/// a delegate face keeps one of these. `Delegate` is a class-bound delegate protocol's existential
/// (`any RoomClientDelegate`); an existential does not satisfy an `AnyObject` constraint, so the slot holds the
/// object weakly as `AnyObject` and casts it back.
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

    /// Makes `delegate` the delegate of `owner` (the client), stopping the previous one's feed. A non-nil delegate
    /// is subscribed to `events` now (so it sees events from this moment on) and gets each one through `deliver`,
    /// one at a time, in order, until the broadcast finishes, the delegate is replaced or released, or `owner` is
    /// released. Where it fell more than the broadcast's buffer limit behind, `lost` gets the number of events it
    /// missed, once per gap, as soon as it has caught up with the events before the gap; the loss is also logged
    /// to `logger`. The feed holds `owner` weakly and hands it to each closure.
    package func set<Owner: AnyObject & Sendable, Event: Sendable>(
        _ delegate: Delegate?, of owner: Owner, events: Broadcast<Event>, logger: Logger,
        deliver: @escaping @Sendable (Owner, Event, Delegate) -> Void,
        lost: @escaping @Sendable (Owner, Int, Delegate) -> Void
    ) {
        let feeder = delegate.map { _ in
            let deliveries = events.subscribeReportingLoss()
            return Task { [weak self, weak owner] in
                for await delivery in deliveries {
                    guard let self, let owner, let delegate = self.delegate else { return }
                    switch delivery {
                    case .event(let event):
                        deliver(owner, event, delegate)
                    case .lost(let count):
                        logger.warning("the delegate fell behind and missed events; it goes on with later ones",
                                       metadata: ["lost": "\(count)"])
                        lost(owner, count, delegate)
                    }
                }
            }
        }
        let object = delegate.map { $0 as AnyObject }
        let previous = slot.withLock { s -> Task<Void, Never>? in
            defer { s = Slot(object: object, feeder: feeder) }
            return s.feeder
        }
        previous?.cancel()
    }

    /// Stops the feed (the client is going away).
    package func stop() { slot.withLock { $0.feeder }?.cancel() }
}
