import SignalingSupport
import CoreMetrics
import JSONRPC
import Logging

/// Events (docs/kurento.md#events): `subscribe {type, object}` once per object and event, `onEvent` notifications
/// routed by `params.value.object` and `params.value.type` to the local subscribers.
extension KurentoClient {
    /// Subscribes `handler` to `object`'s events of type `Event`; returns once KMS confirmed the subscription.
    /// The handler runs for each event, in order, on no particular thread; it must be quick.
    /// - Throws: KMS's refusal (40101 for an unknown object, 40106 for an event the object does not raise).
    public func subscribe<Event: KurentoEvent>(_ type: Event.Type, on object: String,
                                               _ handler: @escaping @Sendable (Event) -> Void)
        async throws(KurentoError) -> KurentoSubscription
    {
        try await subscribe(EventKey(object: object, type: Event.eventType), EventHandler(
            deliver: { [weak self] data in self?.decode(data, as: Event.self).map(handler) }, end: { _ in }))
    }

    /// The events of `object` of type `Event` as a stream, subscribed on the wire before this returns.
    public func events<Event: KurentoEvent>(_ type: Event.Type, of object: String)
        async throws(KurentoError) -> KurentoEventStream<Event>
    {
        let limit = configuration.eventBufferLimit
        let (stream, continuation) = AsyncThrowingStream<Event, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(limit))
        let overflowed = OneShot<Void>()
        let handler = EventHandler(
            deliver: { [weak self] data in
                guard let event = self?.decode(data, as: Event.self) else { return }
                if case .dropped = continuation.yield(event), overflowed.fulfill(()) {
                    continuation.finish(throwing: KurentoEventOverflow(limit: limit))
                }
            },
            end: { error in continuation.finish(throwing: error) })
        let subscription = try await subscribe(EventKey(object: object, type: Event.eventType), handler)
        continuation.onTermination = { _ in Task { await subscription.cancel() } }
        return KurentoEventStream(stream: stream, subscription: subscription)
    }

    func subscribe(_ key: EventKey, _ handler: EventHandler) async throws(KurentoError) -> KurentoSubscription {
        let calls = [KurentoCall(kind: .subscribe(key, handler))]
        let outcome = try await send(calls)[0]
        guard let subscription = outcome.subscription else {
            throw outcome.error ?? KurentoError.invalidResponse("subscribe \(key.type): no subscription")
        }
        return subscription
    }

    /// Adds a local subscriber; returns its token, whether the key needs a subscription on the wire, and where KMS's
    /// answer to that subscription will be.
    func addHandler(_ handler: EventHandler, to key: EventKey) -> LocalSubscriber {
        state.withLock { s in
            let token = s.nextToken
            s.nextToken += 1
            let isFirst = s.subscriptions[key] == nil
            if isFirst { s.subscriptions[key] = WireSubscription() }
            s.subscriptions[key]?.handlers[token] = handler
            return LocalSubscriber(token: token, isFirst: isFirst, confirmation: s.subscriptions[key]!.confirmation)
        }
    }

    /// A local subscriber just added.
    struct LocalSubscriber {
        var token: UInt64
        var isFirst: Bool
        var confirmation: OneShot<Result<String, KurentoError>>
    }

    /// Records KMS's answer to the wire subscription of `key`: its id, or the refusal (every local subscriber of the
    /// key then ends with it). A subscription whose subscribers all left meanwhile is unsubscribed at once.
    func confirm(_ key: EventKey, with result: Result<JSONValue, KurentoError>) {
        let outcome: Result<String, KurentoError> = result.flatMap { value in
            guard let id = value["value"]?.stringValue else {
                return .failure(.invalidResponse("'subscribe' answered \(value.redactingSessionIds.jsonText.prefix(200))"))
            }
            return .success(id)
        }
        let (confirmation, ended, orphaned) = state.withLock {
            s -> (OneShot<Result<String, KurentoError>>?, [EventHandler], Bool) in
            guard var subscription = s.subscriptions[key] else { return (nil, [], false) }
            switch outcome {
            case .success(let id):
                subscription.id = id
                let orphaned = subscription.handlers.isEmpty
                s.subscriptions[key] = orphaned ? nil : subscription
                return (subscription.confirmation, [], orphaned)
            case .failure:
                s.subscriptions[key] = nil
                return (subscription.confirmation, Array(subscription.handlers.values), false)
            }
        }
        confirmation?.fulfill(outcome)
        if case .failure(let error) = outcome { for handler in ended { handler.end(error) } }
        if orphaned, case .success(let id) = outcome { unsubscribeLater(key, id: id) }
    }

    /// The outcome of a local subscription once its wire subscription is answered.
    func subscribed(_ key: EventKey, _ subscriber: LocalSubscriber) async -> KurentoCallOutcome {
        switch await subscriber.confirmation.wait() {
        case .success: return .subscribed(KurentoSubscription(client: self, key: key, token: subscriber.token))
        case .failure(let error): return .failed(error)
        }
    }

    /// Removes one local subscriber; the last one of a confirmed subscription unsubscribes on the wire.
    func removeHandler(_ token: UInt64, of key: EventKey) async {
        let (handler, unsubscribe) = state.withLock { s -> (EventHandler?, String?) in
            guard var subscription = s.subscriptions[key],
                  let handler = subscription.handlers.removeValue(forKey: token) else { return (nil, nil) }
            guard subscription.handlers.isEmpty, let id = subscription.id else {
                s.subscriptions[key] = subscription
                return (handler, nil)
            }
            s.subscriptions[key] = nil
            return (handler, id)
        }
        handler?.end(nil)
        if let unsubscribe {
            _ = try? await request(KurentoProtocol.unsubscribe,
                                   KurentoProtocol.unsubscribeParams(object: key.object, subscription: unsubscribe),
                                   label: "unsubscribe", timeout: nil)
        }
    }

    private func unsubscribeLater(_ key: EventKey, id: String) {
        Task {
            _ = try? await request(KurentoProtocol.unsubscribe,
                                   KurentoProtocol.unsubscribeParams(object: key.object, subscription: id),
                                   label: "unsubscribe", timeout: nil)
        }
    }

    /// Routes one `onEvent` notification (`params.value = {data, object, type}`, Kurento/kurento-media-server
    /// `server/transport/websocket/WebSocketEventHandler.cpp`, `sendEvent`) to the subscribers of its object and type.
    /// Anything else KMS sends unasked is logged and dropped.
    func route(_ notification: RPCNotification) {
        guard notification.method == KurentoProtocol.onEvent else {
            logger.notice("kms sent an unknown notification", metadata: ["kms": "\(name)",
                                                                       "method": "\(notification.method)"])
            return
        }
        guard let value = notification.params?["value"], let object = value["object"]?.stringValue,
              let type = value["type"]?.stringValue, let data = value["data"], data.objectValue != nil else {
            logger.warning("kms sent an event of the wrong shape", metadata: [
                "kms": "\(name)", "params": "\(notification.params?.jsonText.prefix(300) ?? "none")"])
            return
        }
        if type == ErrorEvent.eventType { metrics?.errors[.event]?.increment() }
        let handlers = state.withLock { $0.subscriptions[EventKey(object: object, type: type)]?.handlers.values }
        guard let handlers, !handlers.isEmpty else {
            logger.debug("kms event nobody subscribes to", metadata: ["kms": "\(name)", "object": "\(object)",
                                                                     "type": "\(type)"])
            return
        }
        for handler in handlers { handler.deliver(data) }
    }

    /// `data` as `Event`, or `nil` (logged) when it does not decode.
    func decode<Event: KurentoEvent>(_ data: JSONValue, as type: Event.Type) -> Event? {
        do {
            return try data.decode(as: Event.self)
        } catch {
            logger.warning("kms event of the wrong shape", metadata: [
                "kms": "\(name)", "type": "\(Event.eventType)", "error": "\(error)",
                "data": "\(data.jsonText.prefix(300))"])
            return nil
        }
    }
}
