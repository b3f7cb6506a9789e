/// Where a client's notifications go (docs/architecture.md#callbacks): a notification whose method's namespace (the
/// part before its first `.`) is claimed (``JSONRPCClient/claimNotifications(inNamespace:by:_:)``) goes to that
/// claim's observer alone; every other one goes to the catch-all observers
/// (``JSONRPCClient/observeNotifications(_:)``), in the order they were registered.
struct NotificationRoutes {
    typealias Observer = @Sendable (RPCNotification) -> Void

    struct Claim {
        /// Who claimed it, for the message when it is claimed twice.
        let consumer: String
        let observer: Observer
    }

    private var unclaimed: [Observer] = []
    private var claims: [String: Claim] = [:]

    mutating func observe(_ observer: @escaping Observer) { unclaimed.append(observer) }

    /// Gives `namespace` to `consumer`. Stops the program when `namespace` is not one (empty, or with a `.`) or is
    /// claimed already: both are programmer errors, and a namespace silently shared or silently claiming nothing
    /// would be found much later, if ever.
    mutating func claim(_ namespace: String, by consumer: String, _ observer: @escaping Observer) {
        guard !namespace.isEmpty, !namespace.contains(".") else {
            fatalError("JSONRPCClient: '\(namespace)', claimed by \(consumer), is not a notification namespace: a "
                + "namespace is the part of a method name before its first '.' (\"sharedObject\" for "
                + "\"sharedObject.update\")")
        }
        if let held = claims[namespace] {
            fatalError("JSONRPCClient: the notification namespace '\(namespace)' is claimed by \(held.consumer); "
                + "\(consumer) cannot claim it too: one consumer per namespace on a client (release the first "
                + "claim, or share its consumer)")
        }
        claims[namespace] = Claim(consumer: consumer, observer: observer)
    }

    mutating func release(_ namespace: String) { claims[namespace] = nil }

    /// The observers of a notification named `method`.
    func observers(for method: String) -> [Observer] {
        guard !claims.isEmpty, let dot = method.firstIndex(of: "."), let claim = claims[String(method[..<dot])] else {
            return unclaimed
        }
        return [claim.observer]
    }
}
