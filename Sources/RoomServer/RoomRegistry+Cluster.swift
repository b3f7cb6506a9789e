import JSONRPC
import RoomClusterCore
import RoomProtocol
import SignalingSupport

extension RoomRegistry {
    /// After a local join was claimed in the cluster: the room's participants on other nodes, as Redis lists them,
    /// become the room's remote members (the join result lists them). The read can list a participant whose own
    /// join overlaps this one and whose `participantJoined` has not arrived yet (it is ignored when it does, as that
    /// of a known member): the members already joined here are told of each one new to this node now, so that every
    /// member hears of every joiner once. Returns the outboxes to flush.
    func seedRemote(room name: String, members: [ClusterMember], node: String) -> [SessionOutbox] {
        state.withLock { s -> [SessionOutbox] in
            let outcome = s.rooms.withExisting(name) { room -> [SessionOutbox] in
                let before = room.remote
                var remote: [String: RemoteMember] = [:]
                for member in members where member.node != node && room[member.user] == nil {
                    remote[member.user] = RemoteMember(member.user, node: member.node, publishing: member.publishing)
                }
                // Events that came while reading win over the read: a departure removes, a stream change sets.
                for (user, change) in room.pendingRemote {
                    switch change {
                    case .left: remote[user] = nil
                    case .publishing(let publishing): remote[user]?.publishing = publishing
                    }
                }
                let new = remote.filter { room.remote[$0.key] == nil }.sorted { $0.key < $1.key }
                // Those known before the read stay (their later events were applied to them).
                room.remote = remote.merging(room.remote) { _, known in known }
                room.pendingRemote = [:]
                publishRemoteChanges(in: room, from: before)
                let joined = room.joinedOutboxes
                guard !new.isEmpty, !joined.isEmpty else { return [] }
                for (user, member) in new {
                    var notes = [RoomNotification.participantJoined(.init(id: user))]
                    if member.publishing { notes.append(.participantPublished(.init(id: user))) }
                    for note in notes {
                        let encoded = note.encoded
                        for outbox in joined { outbox.enqueue(encoded) }
                    }
                }
                return joined
            }
            guard let outcome else { return [] }
            changed(&s)
            return outcome
        }
    }

    /// Applies another node's event to the local members of its room: they get the notification it stands for.
    /// Identity comes from the event's `user`, which the origin node took from its own session; an event about a
    /// name this node holds locally is ignored. Returns what to flush and release.
    func apply(_ event: ClusterEvent) -> Departure {
        state.withLock { s -> Departure in
            let outcome = s.rooms.withExisting(event.room) { room -> (departure: Departure, visible: Bool) in
                guard room[event.user] == nil else { return (Departure(), false) }
                let before = room.remote
                var result = Departure()
                let user = event.user
                let note: RoomNotification?
                switch (event.kind, room.remote[user]) {
                case (RoomNotificationMethod.participantJoined.rawValue, nil):
                    room.remote[user] = RemoteMember(user, node: event.origin, publishing: false)
                    note = .participantJoined(.init(id: user))
                case (RoomNotificationMethod.participantLeft.rawValue, let member?) where member.node != event.origin:
                    // Another node's participant of that name (the sender's own was evicted, or never stayed): kept.
                    note = nil
                case (RoomNotificationMethod.participantLeft.rawValue, _?), (ClusterEvent.departed, _?):
                    room.remote[user] = nil
                    if room.hasJoining { room.pendingRemote[user] = .left }
                    result.released += Self.dropSubscriptions(to: user, in: &room)
                    note = .participantLeft(.init(name: user))
                case (RoomNotificationMethod.participantPublished.rawValue, var member?):
                    member.publishing = true
                    room.remote[user] = member
                    if room.hasJoining { room.pendingRemote[user] = .publishing(true) }
                    note = .participantPublished(.init(id: user))
                case (RoomNotificationMethod.participantUnpublished.rawValue, var member?):
                    member.publishing = false
                    room.remote[user] = member
                    if room.hasJoining { room.pendingRemote[user] = .publishing(false) }
                    result.released += Self.dropSubscriptions(to: user, in: &room)
                    note = .participantUnpublished(.init(name: user))
                case (RoomNotificationMethod.sendMessage.rawValue, _?):
                    note = .sendMessage(.init(room: room.name, user: user, message: event.payload))
                case (RoomNotificationMethod.privateMessage.rawValue, _?):
                    // To one local member only; the sender is the origin node's participant.
                    guard let payload = try? JSONValue(parsing: event.payload), let to = payload["to"]?.stringValue,
                          let message = payload["message"]?.stringValue, let target = room[to], target.phase == .joined
                    else { return (result, false) }
                    target.outbox.enqueue(.privateMessage(.init(user: user, message: message)))
                    result.flush.append(target.outbox)
                    return (result, false)
                case (RoomNotificationMethod.participantLeft.rawValue, nil), (ClusterEvent.departed, nil):
                    // Not known here (yet): a local join reading the members now must not list it.
                    if room.hasJoining { room.pendingRemote[user] = .left }
                    note = nil
                case (RoomNotificationMethod.participantPublished.rawValue, nil):
                    if room.hasJoining { room.pendingRemote[user] = .publishing(true) }
                    note = nil
                case (RoomNotificationMethod.participantUnpublished.rawValue, nil):
                    if room.hasJoining { room.pendingRemote[user] = .publishing(false) }
                    note = nil
                default:
                    // A kind this node does not serve, or an event about a name it does not know: nothing to tell.
                    note = nil
                }
                publishRemoteChanges(in: room, from: before,
                                     departure: event.kind == ClusterEvent.departed ? .evicted : .left)
                guard let note else { return (result, false) }
                let encoded = note.encoded
                for outbox in room.joinedOutboxes { outbox.enqueue(encoded) }
                result.flush += room.joinedOutboxes
                return (result, event.kind != RoomNotificationMethod.sendMessage.rawValue)
            }
            guard let outcome else { return Departure() }
            if outcome.visible { changed(&s) }
            return outcome.departure
        }
    }

    /// After Redis came back: the room's remote members become what Redis lists, and the local members are told
    /// the differences (who joined, left, started or stopped publishing meanwhile).
    func resync(room name: String, members: [ClusterMember], node: String) -> Departure {
        state.withLock { s -> Departure in
            let outcome = s.rooms.withExisting(name) { room -> (departure: Departure, visible: Bool) in
                let before = room.remote
                var now: [String: RemoteMember] = [:]
                for member in members where member.node != node && room[member.user] == nil {
                    now[member.user] = RemoteMember(member.user, node: member.node, publishing: member.publishing)
                }
                var notes: [RoomNotification] = []
                var result = Departure()
                for (user, before) in room.remote where now[user] == nil {
                    result.released += Self.dropSubscriptions(to: user, in: &room)
                    if before.publishing { notes.append(.participantUnpublished(.init(name: user))) }
                    notes.append(.participantLeft(.init(name: user)))
                }
                for user in now.keys.sorted() {
                    let after = now[user]!
                    switch room.remote[user] {
                    case nil:
                        notes.append(.participantJoined(.init(id: user)))
                        if after.publishing { notes.append(.participantPublished(.init(id: user))) }
                    case let before? where before.publishing != after.publishing:
                        if after.publishing {
                            notes.append(.participantPublished(.init(id: user)))
                        } else {
                            result.released += Self.dropSubscriptions(to: user, in: &room)
                            notes.append(.participantUnpublished(.init(name: user)))
                        }
                    default:
                        break
                    }
                }
                room.remote = now
                publishRemoteChanges(in: room, from: before)
                for note in notes {
                    let encoded = note.encoded
                    for outbox in room.joinedOutboxes { outbox.enqueue(encoded) }
                }
                if !notes.isEmpty { result.flush = room.joinedOutboxes }
                return (result, !notes.isEmpty)
            }
            guard let outcome else { return Departure() }
            if outcome.visible { changed(&s) }
            return outcome.departure
        }
    }

    /// Tells the other nodes again about every joined local member and its stream (after a Redis restart, or after
    /// this node was presumed dead): a node that already knows one ignores it, one that swept it adds it back.
    func announceLocalMembers() {
        guard let cluster else { return }
        state.withLock { s in
            for room in s.rooms.values {
                for member in room.joined {
                    cluster.post(RoomNotificationMethod.participantJoined.rawValue, room: room.name, user: member.name,
                                 payload: "")
                    if member.publishing == .live {
                        cluster.post(RoomNotificationMethod.participantPublished.rawValue, room: room.name,
                                     user: member.name, payload: "")
                    }
                }
            }
        }
    }

    /// Whether `user` is a participant of `room` on another node.
    func isRemote(_ user: String, in room: String) -> Bool {
        state.withLock { $0.rooms[room]?.remote[user] != nil }
    }

    /// The rooms that have local members.
    var localRooms: [String] { state.withLock { Array($0.rooms.keys) } }
}
