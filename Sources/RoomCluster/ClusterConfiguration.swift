/// How a node joins a cluster.
public struct ClusterConfiguration: Sendable {
    /// The cluster's Redis (its password or ACL user is the cluster's shared secret).
    public var redis: RedisURL
    /// This node's name, unique in the cluster (room-server `--node-id`; default: host name and process id).
    public var nodeID: String
    /// How often the node renews its heartbeat key and sweeps dead nodes.
    public var heartbeatInterval: Duration
    /// How long a node's heartbeat key lives: a node silent that long is dead, and a survivor removes its
    /// participants (so a killed node's participants leave within `nodeTimeout + heartbeatInterval`).
    public var nodeTimeout: Duration
    /// The bound on each Redis command, counted from when it is queued (the time it waits behind others included):
    /// a join fails with "cluster unavailable" within it at worst, and at once while Redis is known lost.
    public var timeout: Duration
    /// The prefix of every key and channel (several clusters can share one Redis).
    public var keyPrefix: String
    /// The largest event payload sent or accepted, in bytes (the Room server's message limit by default).
    public var maxPayloadBytes: Int
    /// The most commands that wait on each of the node's Redis connections (claims and membership, events,
    /// heartbeats): a claim beyond it fails at once, and events beyond it are lost and reported as an outage
    /// (``/RoomClusterCore/ClusterIncoming/unavailable(_:)``, then ``/RoomClusterCore/ClusterIncoming/restored``).
    /// Default 1,024.
    public var queueCapacity: Int = 1024
    /// The most events held for the server on each side of the node: what the subscription read from Redis, and
    /// ``ClusterNode/events``. A server that falls that far behind loses what follows, which is reported as an outage
    /// (``/RoomClusterCore/ClusterIncoming/unavailable(_:)``, then ``/RoomClusterCore/ClusterIncoming/restored``, and
    /// the server resynchronizes) rather than held in memory. Default 10,000.
    public var eventCapacity: Int = RedisSubscriber.defaultCapacity

    /// A configuration with defaults: a heartbeat every second, dead after 5 s, 2 s per round trip.
    public init(redis: RedisURL, nodeID: String, heartbeatInterval: Duration = .seconds(1),
                nodeTimeout: Duration = .seconds(5), timeout: Duration = .seconds(2), keyPrefix: String = "ks:",
                maxPayloadBytes: Int = 1 << 20) {
        self.redis = redis
        self.nodeID = nodeID
        self.heartbeatInterval = heartbeatInterval
        self.nodeTimeout = nodeTimeout
        self.timeout = timeout
        self.keyPrefix = keyPrefix
        self.maxPayloadBytes = maxPayloadBytes
    }
}

/// The cluster's keys and channels, all under ``ClusterConfiguration/keyPrefix``:
///
/// | key or channel | type | holds |
/// |---|---|---|
/// | `nodes` | set | node ids that have registered |
/// | `node:<id>` | string with a TTL | the node's heartbeat |
/// | `node:<id>:members` | set | `room\nuser` of every participant the node holds |
/// | `room:<room>:members` | hash | user → node id (the name claim) |
/// | `room:<room>:publishers` | set | users publishing |
/// | `sweep:<id>` | string with a TTL | which survivor sweeps a dead node |
/// | `snapshot:<id>` | string with a TTL | the node's participants for the operations view (``ClusterSnapshots``) |
/// | `so:<name>` | hash | a shared object: version, persistence, `clients` and `c:<node>` its clients, size, properties |
/// | `so-usage` | hash | the objects and bytes the shared-object quotas count |
/// | `so-clients:<id>` | set | the objects the node has clients of (its sweep takes them away) |
/// | channel `room:<room>` | pub/sub | the room's events, in each node's order |
struct ClusterKeys: Sendable {
    let prefix: String

    var nodes: String { prefix + "nodes" }
    func node(_ id: String) -> String { prefix + "node:" + id }
    func nodeMembers(_ id: String) -> String { prefix + "node:" + id + ":members" }
    func members(_ room: String) -> String { prefix + "room:" + room + ":members" }
    func publishers(_ room: String) -> String { prefix + "room:" + room + ":publishers" }
    func sweep(_ id: String) -> String { prefix + "sweep:" + id }
    func channel(_ room: String) -> String { prefix + "room:" + room }
    var channelPattern: String { prefix + "room:*" }

    /// The room of a channel of ours, or nil for anything else.
    func room(ofChannel channel: String) -> String? {
        let head = prefix + "room:"
        guard channel.hasPrefix(head) else { return nil }
        return String(channel.dropFirst(head.count))
    }

    /// A member entry of `node:<id>:members`.
    static func entry(room: String, user: String) -> String { room + "\n" + user }

    /// The room and user of a member entry.
    static func parse(entry: String) -> (room: String, user: String)? {
        guard let newline = entry.firstIndex(of: "\n") else { return nil }
        return (String(entry[..<newline]), String(entry[entry.index(after: newline)...]))
    }
}
