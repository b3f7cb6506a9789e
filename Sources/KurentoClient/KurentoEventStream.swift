/// A ``KurentoEventStream`` fell further behind than its buffer (``KurentoClient/Configuration/eventBufferLimit``):
/// it delivered what it buffered, then this error, and ended. Nothing is dropped silently.
public struct KurentoEventOverflow: Error, Sendable, Hashable, CustomStringConvertible {
    /// The buffer's size.
    public var limit: Int
    public var description: String { "the event stream fell more than \(limit) events behind and ended" }
}

/// The events of one type raised by one KMS object, as an `AsyncSequence` (``MediaObject/events(_:)``).
///
/// It is subscribed on the wire before ``MediaObject/events(_:)`` returns, so no event raised after that is missed.
/// It ends normally when the object is released, with ``KurentoError/connectionLost(_:)`` when KMS lost the
/// session, and with ``KurentoEventOverflow`` when its consumer falls behind. When its consumer stops (the task is
/// cancelled, or the iterator dropped), or on ``cancel()``, it unsubscribes.
public struct KurentoEventStream<Event: KurentoEvent>: AsyncSequence, Sendable {
    public typealias Element = Event
    let stream: AsyncThrowingStream<Event, any Error>
    let subscription: KurentoSubscription

    /// The subscription behind the stream.
    public var object: String { subscription.object }

    public func makeAsyncIterator() -> AsyncThrowingStream<Event, any Error>.AsyncIterator {
        stream.makeAsyncIterator()
    }

    /// Unsubscribes and ends the stream.
    public func cancel() async { await subscription.cancel() }
}
