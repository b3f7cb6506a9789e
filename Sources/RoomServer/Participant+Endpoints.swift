import RoomProtocol

extension Participant {
    /// A participant's endpoints by key, counting those the backend created as it goes, so that the room gauges
    /// (docs/operations.md#metrics) never walk them.
    struct Endpoints: Sendable, Sequence {
        private var storage: [RoomEndpoint: Endpoint] = [:]
        /// 1 while the publisher endpoint is ``Endpoint/ready``.
        private(set) var readyPublishers = 0
        /// Subscriber endpoints that are ``Endpoint/ready``.
        private(set) var readySubscriptions = 0

        subscript(key: RoomEndpoint) -> Endpoint? {
            get { storage[key] }
            set {
                count(storage[key], key, -1)
                count(newValue, key, 1)
                storage[key] = newValue
            }
        }

        /// Removes the endpoint of `key` and returns it.
        mutating func removeValue(forKey key: RoomEndpoint) -> Endpoint? {
            let removed = storage.removeValue(forKey: key)
            count(removed, key, -1)
            return removed
        }

        var values: Dictionary<RoomEndpoint, Endpoint>.Values { storage.values }

        func makeIterator() -> Dictionary<RoomEndpoint, Endpoint>.Iterator { storage.makeIterator() }

        private mutating func count(_ endpoint: Endpoint?, _ key: RoomEndpoint, _ sign: Int) {
            guard endpoint == .ready else { return }
            if key == .publisher { readyPublishers += sign } else { readySubscriptions += sign }
        }
    }
}
