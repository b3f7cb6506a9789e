extension KurentoMediaServerDouble {
    /// The subscriptions by uuid, indexed by the object they watch: an event finds its sessions among that object's
    /// subscriptions instead of scanning every subscription (a thousand clients' storm made that quadratic,
    /// `make bench`).
    struct SubscriptionTable: Sendable {
        private var byID: [String: Subscription] = [:]
        private var byObject: [String: Set<String>] = [:]

        /// The number of subscriptions.
        var count: Int { byID.count }

        /// The subscription `id`.
        subscript(id: String) -> Subscription? { byID[id] }

        mutating func insert(_ subscription: Subscription, as id: String) {
            byID[id] = subscription
            byObject[subscription.object, default: []].insert(id)
        }

        mutating func remove(_ id: String) {
            guard let subscription = byID.removeValue(forKey: id) else { return }
            byObject[subscription.object]?.remove(id)
            if byObject[subscription.object]?.isEmpty == true { byObject[subscription.object] = nil }
        }

        /// Removes every subscription to one of `objects`.
        mutating func removeAll(watching objects: Set<String>) {
            for object in objects {
                for id in byObject.removeValue(forKey: object) ?? [] { byID[id] = nil }
            }
        }

        /// Removes every subscription of `session`.
        mutating func removeAll(of session: String) {
            for (id, subscription) in byID where subscription.session == session { remove(id) }
        }

        /// The sessions subscribed to `type` events of `object`.
        func sessions(subscribedTo type: String, of object: String) -> Set<String> {
            Set((byObject[object] ?? []).compactMap { byID[$0] }.filter { $0.type == type }.map(\.session))
        }
    }
}
