import RoomProtocol

/// A participant of the room that another node of the cluster holds.
struct RemoteMember: Sendable, Hashable {
    var node: String
    var publishing: Bool
    /// The confusable skeleton of its name (``RoomNaming/skeleton(_:)``).
    var skeleton: String

    init(_ user: String, node: String, publishing: Bool) {
        self.node = node
        self.publishing = publishing
        skeleton = RoomNaming.skeleton(user)
    }
}

/// What another node said about a participant this node did not know yet (``Room/pendingRemote``).
enum PendingRemote: Sendable, Hashable {
    case left
    case publishing(Bool)
}

/// One room's state in the registry: its participants in join order.
struct Room: Sendable {
    let name: String
    private(set) var participants: [String: Participant] = [:]
    private(set) var order: [String] = []
    /// Whether ``RoomServerEvent/roomCreated(room:)`` went out (a first join the authorizer refused never shows).
    var announced = false
    /// With a cluster: the participants other nodes hold, by name.
    var remote: [String: RemoteMember] = [:]
    /// With a cluster, while a local join reads the room's members from Redis: what other nodes said meanwhile
    /// about participants this node did not know yet, so that the read, which may predate it, does not undo it.
    var pendingRemote: [String: PendingRemote] = [:]

    /// What the room counts towards the room gauges, kept by ``subscript(_:)``.
    private(set) var tally = RoomTally()

    /// Whether a local join is between its reservation and its commit.
    var hasJoining: Bool { participants.values.contains { $0.phase == .joining } }

    init(name: String) { self.name = name }

    var isEmpty: Bool { participants.isEmpty }

    /// The joined participants, in join order.
    var joined: [Participant] {
        order.compactMap { participants[$0] }.filter { $0.phase == .joined }
    }

    /// The outboxes of the joined participants, which every broadcast enqueues to: kept by ``subscript(_:)`` as
    /// participants join and leave, so that a broadcast (a chat message here or from another node) copies no
    /// participant (``joined`` copies each, with its endpoints and flows, into two new arrays).
    private(set) var joinedOutboxes: [SessionOutbox] = []

    /// Whether `user` is a joined participant here or on another node.
    func isMember(_ user: String) -> Bool { self[user]?.phase == .joined || remote[user] != nil }

    /// The participant, here (joined or joining) or on another node, whose name has `skeleton`
    /// (docs/wire-protocol.md#room-naming: names look alike).
    func member(withSkeleton skeleton: String) -> String? {
        participants.values.first { $0.skeleton == skeleton }?.name
            ?? remote.first { $0.value.skeleton == skeleton }?.key
    }

    /// Whether `user` (here or on another node) publishes.
    func isPublishing(_ user: String) -> Bool {
        if let local = self[user] { return local.phase == .joined && local.publishing == .live }
        return remote[user]?.publishing == true
    }

    /// The remote participants as the `joinRoom` result lists them, by name.
    var remoteListing: [RoomParticipant] {
        remote.keys.sorted().map { RoomParticipant(id: $0, streams: remote[$0]!.publishing ? [.init()] : []) }
    }

    /// The participant `user` as it is, for a change that stores it back with ``subscript(_:)``: the room keeps it
    /// (same phase, publishing and outbox, same place in ``order``) but without its endpoints and flows until then,
    /// so that the returned value holds the only reference to them and changes them without copying
    /// (``RoomRegistry/withJoined(_:visible:_:)``). The tally follows what the room holds.
    mutating func checkOut(_ user: String) -> Participant? {
        guard let participant = participants[user] else { return nil }
        tally.count(participant, -1)
        participants[user]!.endpoints = Participant.Endpoints()
        participants[user]!.flows = [:]
        tally.count(participants[user]!, 1)
        return participant
    }

    subscript(user: String) -> Participant? {
        get { participants[user] }
        set {
            let old = participants[user]
            if let old { tally.count(old, -1) }
            if let newValue { tally.count(newValue, 1) }
            if old == nil, newValue != nil { order.append(user) }
            if newValue == nil { order.removeAll { $0 == user } }
            let wasJoined = old?.phase == .joined, isJoined = newValue?.phase == .joined
            if wasJoined, !isJoined || old?.outbox !== newValue?.outbox {
                joinedOutboxes.removeAll { $0 === old?.outbox }
            }
            if isJoined, let outbox = newValue?.outbox, !wasJoined || old?.outbox !== outbox {
                joinedOutboxes.append(outbox)
            }
            participants[user] = newValue
        }
    }
}
