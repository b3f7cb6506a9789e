import Foundation
import SignalingSupport

extension KurentoMediaServerDouble {
    /// The double's sizes and counters at one moment, for readers outside its process: `kms-double`'s `stats`
    /// command, which the room-server CLI tests and `make bench` use.
    public struct Statistics: Sendable, Equatable, Codable {
        /// The live pipelines and elements (``liveObjectCount``), and the pipelines among them.
        public var objects: Int
        public var pipelines: Int
        /// The media set's sessions (``sessions``).
        public var sessions: Int
        /// The open WebSocket connections (``connectionCount``), and those accepted since the start
        /// (``connectionsAccepted``).
        public var connections: Int
        public var connectionsAccepted: Int
        /// The requests that ran, by method and by `invoke` operation (``requestCounts``).
        public var methods: [String: Int]
        public var operations: [String: Int]
        /// The requests answered from the request cache (``replayedRequests``).
        public var replayedRequests: Int
        /// The events written to a socket (``eventsSent``).
        public var eventsSent: Int

        /// The requests that ran, all methods together.
        public var requests: Int { methods.values.reduce(0, +) }
    }

    /// The statistics now, once the events raised so far have gone out: the events of every request already
    /// answered are counted.
    public func statistics() -> Statistics {
        eventQueue.sync {}
        return state.withLock { s in
            Statistics(
                objects: s.world.objects.count,
                pipelines: s.world.objects.values.filter { $0.kind == .mediaPipeline }.count,
                sessions: s.world.sessions.count, connections: s.sockets.count, connectionsAccepted: s.nextSocketID,
                methods: s.counts.methods, operations: s.counts.operations, replayedRequests: s.replayedRequests,
                eventsSent: s.eventsSent)
        }
    }
}
