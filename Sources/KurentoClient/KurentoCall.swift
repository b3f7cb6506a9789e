public import JSONRPC

/// One request of ``KurentoClient/send(_:timeout:)``: requests sent back to back, answered in order.
public struct KurentoCall: Sendable {
    enum Kind: Sendable {
        case invoke(object: String, operation: String, params: [String: JSONValue]?)
        case subscribe(EventKey, KurentoClient.EventHandler)
        case release(String)
    }

    let kind: Kind

    /// `invoke` of `operation` on `object`.
    public static func invoke(_ object: some MediaObject, _ operation: String, _ params: [String: JSONValue]? = nil)
        -> KurentoCall
    {
        KurentoCall(kind: .invoke(object: object.id, operation: operation, params: params))
    }

    /// A subscription to `object`'s events of type `Event`, delivered to `handler` (quick, on no particular thread)
    /// until the subscription is cancelled or the object released.
    public static func subscribe<Event: KurentoEvent>(
        _ type: Event.Type, on object: some MediaObject, _ handler: @escaping @Sendable (Event) -> Void
    ) -> KurentoCall {
        let client = object.client
        return KurentoCall(kind: .subscribe(
            EventKey(object: object.id, type: Event.eventType),
            KurentoClient.EventHandler(deliver: { data in client.decode(data, as: Event.self).map(handler) },
                                       end: { _ in })))
    }

    /// `release` of `object`.
    public static func release(_ object: some MediaObject) -> KurentoCall {
        KurentoCall(kind: .release(object.id))
    }
}

/// How one ``KurentoCall`` ended.
public enum KurentoCallOutcome: Sendable {
    /// An `invoke` or `release` answered with this value (`null` for a void operation).
    case value(JSONValue)
    /// A subscription is in place.
    case subscribed(KurentoSubscription)
    /// The call failed.
    case failed(KurentoError)

    /// The value, or the error thrown.
    @discardableResult
    public func get() throws(KurentoError) -> JSONValue {
        switch self {
        case .value(let value): return value
        case .subscribed: return .null
        case .failed(let error): throw error
        }
    }

    /// The subscription, for a subscribe call that succeeded.
    public var subscription: KurentoSubscription? { if case .subscribed(let s) = self { s } else { nil } }

    /// The error, for a call that failed.
    public var error: KurentoError? { if case .failed(let error) = self { error } else { nil } }
}
