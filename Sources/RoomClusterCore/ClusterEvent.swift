/// A room event from one node to the others, on the room's channel.
///
/// `kind` and `payload` belong to the server that uses the cluster (the Room server puts a notification's method
/// and params there); the cluster adds where it came from and its place in that node's order. Identity is never
/// taken from a payload: `user` is the participant the origin node holds for its own session.
public struct ClusterEvent: Sendable, Hashable, Codable {
    /// The node that sent it (for a dead node's departures: the dead node).
    public var origin: String
    /// The room.
    public var room: String
    /// Its place in its origin's order: increasing by one per event the origin sent.
    public var sequence: UInt64
    /// What happened (``departed`` for a dead node's participant, swept by a survivor).
    public var kind: String
    /// The participant it is about.
    public var user: String
    /// The server's data, opaque to the cluster.
    public var payload: String

    /// The kind of the event a survivor sends for each participant of a dead node.
    public static let departed = "departed"

    /// The kind of the event a node delivers to its own server (never sent to other nodes) for a participant it
    /// holds whose name another node claimed while this one was cut off or taken for dead: the server removes it.
    public static let taken = "taken"

    /// The kind of the event a node delivers to its own server (never sent to other nodes) for a name the cluster
    /// gave this node that it no longer holds (a release that failed during an outage, a claim whose reply was
    /// lost), released by registering again: the other nodes may still list it, so the server tells them it left.
    public static let released = "released"

    /// The kind of a shared object's change, sequenced by the cluster
    /// (``ClusterBackplane/setObject(_:changes:maxBytes:maxTotalBytes:sender:)``): `room` is the object's name,
    /// `payload` is `{"version":…,"changed":{…},"sender":…}`.
    public static let sharedObjectUpdate = "sharedObject.update"

    /// The kind of a shared object's message to the clients of that object on every node: `room` is the object's
    /// name, `payload` is the message's JSON.
    public static let sharedObjectMessage = "sharedObject.message"

    /// Creates an event.
    public init(origin: String, room: String, sequence: UInt64, kind: String, user: String, payload: String) {
        self.origin = origin
        self.room = room
        self.sequence = sequence
        self.kind = kind
        self.user = user
        self.payload = payload
    }
}
