/// What a ``RoomServer`` holds right now, for operators (docs/operations.md#rooms): every room with the media server
/// that serves it and its participants, what each publishes and receives and whether that media flows, how far
/// behind its session is, and totals. ``RoomServer/operationsSnapshot()``
/// takes it, `GET /rooms` serves it as JSON, and the `/admin` subscription sends it after each change.
///
/// It is taken in one piece under the room registry's lock, so it is consistent: a subscription never names a
/// participant that has already left. Only ``Room/mediaServer`` is asked of the media backend, just after, outside
/// that lock (a backend is application code). It never contains session ids (they are bearer credentials,
/// docs/architecture.md#identity).
///
/// With a cluster, it is the cluster's: every node's rooms and participants, those of other nodes listed with
/// ``Participant/node`` and ``Participant/remote`` (docs/operations.md#rooms-cluster).
public struct OperationsSnapshot: Codable, Sendable, Hashable {
    /// One room, the media server that serves it, and its joined participants.
    public struct Room: Codable, Sendable, Hashable {
        /// The room's name.
        public var name: String
        /// The media server that serves the room's media on this node, as the backend names it
        /// (``MediaBackend/mediaServer(of:)``: with ``KurentoMediaBackend`` the Kurento Media Server's URL); `nil`
        /// while none does (nobody publishes or receives yet, or the media server was lost) and with a backend that
        /// has no such notion (``SimulatedMediaBackend``).
        public var mediaServer: String?
        /// Its participants: this node's in join order, then those of other nodes by name.
        public var participants: [Participant]

        /// Creates a room entry.
        public init(name: String, mediaServer: String? = nil, participants: [Participant]) {
            self.name = name
            self.mediaServer = mediaServer
            self.participants = participants
        }

        /// Encodes every member, ``mediaServer`` as `null` when there is none.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(mediaServer, forKey: .mediaServer)
            try container.encode(participants, forKey: .participants)
        }
    }

    /// One joined participant.
    public struct Participant: Codable, Sendable, Hashable {
        /// The user name.
        public var name: String
        /// The cluster node that holds its session; `nil` without a cluster.
        public var node: String?
        /// Whether another node of the cluster holds it (what follows is then what that node last wrote of it, or
        /// unknown: docs/operations.md#rooms-cluster).
        public var remote: Bool
        /// The stream ids it publishes (`["webcam"]` while publishing, docs/wire-protocol.md#room-naming).
        public var streams: [String]
        /// The users whose streams it receives (its subscriptions whose endpoint exists), by name; empty for a
        /// remote participant its node did not describe.
        public var subscriptions: [String]
        /// Whether its session has a connection now (`false` while it waits in its reconnection window); `nil` for a
        /// remote participant its node did not describe.
        public var connected: Bool?
        /// The notifications queued for its session and not yet written to its socket; `nil` for a remote
        /// participant its node did not describe.
        public var outboxDepth: Int?
        /// The round-trip time of its connection in milliseconds, as the transport last measured it; `nil` when
        /// unknown (not measured yet, no connection, a remote participant its node did not describe).
        public var rttMilliseconds: Double?
        /// Whether media flows into the media server on each of its ``streams``, by stream id: one entry per
        /// stream (unknown for a remote participant its node did not describe).
        public var streamFlows: [String: Flow]
        /// Whether media flows from the media server to it on each of its ``subscriptions``, by publisher name: one
        /// entry per subscription.
        public var subscriptionFlows: [String: Flow]

        /// Creates a participant entry.
        public init(name: String, node: String? = nil, remote: Bool = false, streams: [String] = [],
                    subscriptions: [String] = [], connected: Bool? = nil, outboxDepth: Int? = nil,
                    rttMilliseconds: Double? = nil, streamFlows: [String: Flow] = [:],
                    subscriptionFlows: [String: Flow] = [:]) {
            self.name = name
            self.node = node
            self.remote = remote
            self.streams = streams
            self.subscriptions = subscriptions
            self.connected = connected
            self.outboxDepth = outboxDepth
            self.rttMilliseconds = rttMilliseconds
            self.streamFlows = streamFlows
            self.subscriptionFlows = subscriptionFlows
        }

        /// Encodes every member, unknown ones as `null` (a reader sees the same keys for every participant).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(node, forKey: .node)
            try container.encode(remote, forKey: .remote)
            try container.encode(streams, forKey: .streams)
            try container.encode(subscriptions, forKey: .subscriptions)
            try container.encode(connected, forKey: .connected)
            try container.encode(outboxDepth, forKey: .outboxDepth)
            try container.encode(rttMilliseconds, forKey: .rttMilliseconds)
            try container.encode(streamFlows, forKey: .streamFlows)
            try container.encode(subscriptionFlows, forKey: .subscriptionFlows)
        }
    }

    /// Counts over the whole snapshot.
    public struct Totals: Codable, Sendable, Hashable {
        /// Rooms.
        public var rooms: Int
        /// Participants, remote ones included.
        public var participants: Int
        /// Published streams, remote ones included.
        public var streams: Int
        /// Subscriptions, remote participants' included.
        public var subscriptions: Int

        /// Creates totals.
        public init(rooms: Int, participants: Int, streams: Int, subscriptions: Int) {
            self.rooms = rooms
            self.participants = participants
            self.streams = streams
            self.subscriptions = subscriptions
        }
    }

    /// When it was taken: UTC, RFC 3339 with milliseconds, e.g. `2025-01-31T12:00:00.000Z`.
    public var generatedAt: String
    /// Counts up with every change of the rooms (a join, a departure, a stream, a subscription, a media flow), so a
    /// reader can drop a snapshot older than the one it shows.
    public var version: UInt64
    /// This node's name in the cluster; `nil` without a cluster.
    public var node: String?
    /// The rooms, by name.
    public var rooms: [Room]
    /// Counts over ``rooms``.
    public var totals: Totals

    /// Creates a snapshot; ``totals`` are counted from `rooms`.
    public init(generatedAt: String, version: UInt64, node: String? = nil, rooms: [Room]) {
        self.generatedAt = generatedAt
        self.version = version
        self.node = node
        self.rooms = rooms
        let participants = rooms.flatMap(\.participants)
        totals = Totals(rooms: rooms.count, participants: participants.count,
                        streams: participants.reduce(0) { $0 + $1.streams.count },
                        subscriptions: participants.reduce(0) { $0 + $1.subscriptions.count })
    }

    /// Encodes every member, ``node`` as `null` without a cluster.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(generatedAt, forKey: .generatedAt)
        try container.encode(version, forKey: .version)
        try container.encode(node, forKey: .node)
        try container.encode(rooms, forKey: .rooms)
        try container.encode(totals, forKey: .totals)
    }
}
