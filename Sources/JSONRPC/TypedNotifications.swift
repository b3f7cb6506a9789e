import Logging
import SignalingSupport

/// The notifications of one method with their params decoded
/// (``JSONRPCClient/notifications(_:as:)``): an `AsyncSequence` of `Element`, in wire order.
///
/// A notification of that method whose params do not decode as `Element` is skipped, never silently: the client
/// logs a warning (its ``JSONRPCClient/Configuration/logger``, with the method and the decoding error) and counts it
/// in ``JSONRPCClient/undecodableNotificationCount``; the sequence goes on with the next one. It ends as
/// ``JSONRPCClient/notifications`` does: when the client is released, or with ``BroadcastOverflow`` when it falls
/// more than ``JSONRPCClient/Configuration/notificationBufferLimit`` notifications (of any method) behind.
public struct TypedNotifications<Element: Decodable & Sendable>: AsyncSequence, Sendable {
    let base: Broadcast<RPCNotification>.Subscription
    let method: String
    /// Told of each notification of `method` that did not decode.
    let skipped: @Sendable (RPCNotification, any Error) -> Void

    /// Reads the next notification of the method whose params decode.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<RPCNotification, any Error>.AsyncIterator
        let method: String
        let skipped: @Sendable (RPCNotification, any Error) -> Void

        /// The next notification's decoded params; `nil` once the client is released.
        /// - Throws: ``BroadcastOverflow`` when this subscriber fell too far behind.
        public mutating func next() async throws -> Element? {
            while let notification = try await base.next() {
                guard notification.method == method else { continue }
                do {
                    return try JSONRPCClient.decodeUnwrapping(notification.params ?? .object([:]))
                } catch {
                    skipped(notification, error)
                }
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), method: method, skipped: skipped)
    }
}

extension JSONRPCClient {
    /// A new subscriber to the notifications named `method`, from this moment on, with their params decoded as `T`
    /// (absent params decode from `{}`; a Kurento-wrapped `{"value": …}` is unwrapped when `T` does not decode from
    /// the wrapper), instead of reading ``notifications`` and decoding by hand:
    ///
    /// ```swift
    /// for try await progress in client.notifications("progress", as: Progress.self) { print(progress.percent) }
    /// ```
    ///
    /// A notification whose params do not decode as `T` is skipped with a warning in the log and counted in
    /// ``undecodableNotificationCount`` (``TypedNotifications``); it is still on ``notifications`` as received.
    public func notifications<T: Decodable & Sendable>(_ method: String, as type: T.Type = T.self)
        -> TypedNotifications<T>
    {
        let logger = logger, undecodable = undecodableNotifications
        return TypedNotifications(base: notifications, method: method) { notification, error in
            undecodable.withLock { $0 += 1 }
            logger.warning("notification params do not decode; skipped by a typed subscriber", metadata: [
                "method": "\(notification.method)", "type": "\(T.self)", "error": "\(error)",
            ])
        }
    }

    /// How many notifications typed subscribers (``notifications(_:as:)``) skipped because their params did not
    /// decode, over the client's life; each subscriber that skips one counts it.
    public var undecodableNotificationCount: Int { undecodableNotifications.withLock { $0 } }
}
