import JSONRPC
import RoomClusterCore
import RoomProtocol
import SignalingSupport

/// Every room and which session is which participant (docs/architecture.md#identity: identity comes from the session).
///
/// All checks and reservations happen synchronously under one lock, before any `await` (docs/architecture.md#identity,
/// re-entrancy): of N concurrent joins of one name exactly one reserves it. Notifications are queued on the recipients'
/// ``SessionOutbox``es under the same lock, so every recipient sees them in state order; the methods return
/// the outboxes the caller must flush.
final class RoomRegistry: Sendable {
    struct Membership: Sendable, Hashable {
        var room: String
        var user: String
    }

    struct State {
        var rooms: RoomTable
        var members: [String: Membership] = [:]
        /// Counts the changes an operator sees (``OperationsSnapshot/version``).
        var version: UInt64 = 0
    }

    let state: LockedValue<State>
    let limits: RoomServerLimits
    let events: Broadcast<RoomServerEvent>
    /// Told of every change an operator sees (joins, departures, streams, subscriptions, remote members), under the
    /// lock: the `/admin` subscription's feed listens here (docs/operations.md#admin-subscription).
    let changes = RegistryChangeSignal()
    /// With a cluster: where local changes go to the other nodes, posted under this registry's lock so that they
    /// leave in the order of the state changes.
    let cluster: (any ClusterBackplane)?

    init(limits: RoomServerLimits, events: Broadcast<RoomServerEvent>, cluster: (any ClusterBackplane)? = nil,
         gauges: RoomGauges? = nil) {
        state = LockedValue(State(rooms: RoomTable(gauges: gauges)))
        self.limits = limits
        self.events = events
        self.cluster = cluster
    }

    /// The error of a request that needs a joined session.
    static let notJoined = RoomError(.userNotFound, message: "not in a room: send joinRoom first")

    /// Reserves `user` in `room` for `session`, creating the room if needed (not yet visible to others). `skeleton`
    /// is the user's confusable skeleton: a member (here or on another node) with the same one gets 104 too.
    func reserve(user: String, skeleton: String, room name: String, session: ServerSession) throws(RoomError) {
        try state.withLock { (s: inout State) throws(RoomError) in
            if let membership = s.members[session.id] { throw RoomError.alreadyInRoom(membership.room) }
            if s.rooms[name] == nil, let max = limits.maxRooms, s.rooms.count >= max {
                throw RoomError(.roomCannotBeCreated, message: "too many rooms (limit \(max))")
            }
            try s.rooms.withRoom(name) { (room: inout Room?) throws(RoomError) in
                // Checked before the room is created, so that a refused first join leaves no room behind.
                if room?[user] != nil || room?.remote[user] != nil { throw RoomError.existingUser(user, room: name) }
                if let member = room?.member(withSkeleton: skeleton) {
                    throw RoomError.lookAlike(user, of: member, room: name)
                }
                if let max = limits.maxParticipantsPerRoom, room?.participants.count ?? 0 >= max {
                    throw RoomError(.roomGeneric, message: "room '\(name)' is full (limit \(max))")
                }
                let outbox = SessionOutbox(roomServerSession: session, limit: limits.maxQueuedNotifications)
                if room == nil { room = Room(name: name) }
                room![user] = Participant(name: user, skeleton: skeleton, session: session, outbox: outbox)
            }
            s.members[session.id] = Membership(room: name, user: user)
        }
    }

    /// Makes a reserved join visible: others get `participantJoined`. Returns the peers for the join result.
    /// `claimed` (``/JSONRPC/RPCRequestContext/claimCompletion()``) is asked under the lock, just before: when
    /// the caller was told the join failed (its deadline passed), the reservation is dropped instead and
    /// ``abandoned`` thrown.
    func commitJoin(session: ServerSession, claimed: () -> Bool)
        throws(RoomError) -> (peers: [RoomParticipant], flush: [SessionOutbox])
    {
        try state.withLock { (s: inout State) throws(RoomError) in
            guard let membership = s.members[session.id],
                  s.rooms[membership.room]?[membership.user]?.phase == .joining
            else { throw RoomError(.roomClosed, message: "the room closed while joining") }
            guard claimed() else {
                Self.dropReservation(of: session, in: &s)
                throw Self.abandoned
            }
            let joined = s.rooms.withExisting(membership.room) { room -> (peers: [RoomParticipant], flush: [SessionOutbox]) in
                let others = room.joined
                room[membership.user]?.phase = .joined
                let created = !room.announced
                room.announced = true
                if created { events.publish(.roomCreated(room: room.name)) }
                events.publish(.participantJoined(room: room.name, user: membership.user))
                // The first local join of a room tells of the participants of other nodes already there.
                if created { publishRemoteChanges(in: room, from: [:]) }
                let note = RoomNotification.participantJoined(.init(id: membership.user)).encoded
                for other in others { other.outbox.enqueue(note) }
                cluster?.post(RoomNotificationMethod.participantJoined.rawValue, room: room.name, user: membership.user,
                              payload: "")
                return (others.map(\.listing) + room.remoteListing, others.map(\.outbox))
            }
            changed(&s)
            return joined!
        }
    }

    /// Drops a reservation the authorizer refused.
    func cancelJoin(session: ServerSession) {
        state.withLock { Self.dropReservation(of: session, in: &$0) }
    }

    /// Drops the reservation of `session`, if it has one that is not joined yet.
    private static func dropReservation(of session: ServerSession, in s: inout State) {
        guard let membership = s.members[session.id], s.rooms[membership.room]?[membership.user]?.phase == .joining
        else { return }
        s.members[session.id] = nil
        s.rooms.withRoom(membership.room) { room in
            room?[membership.user] = nil
            if room?.isEmpty == true && room?.announced == false { room = nil }
        }
    }

    /// What a request whose caller was told it failed (its handler deadline passed, or the server stops) throws
    /// once it undid what it did: the answer reaches no one after a deadline
    /// (docs/architecture.md#handler-deadlines).
    static let abandoned = RoomError(.generic, message: "the request was cancelled before it took effect")

    /// The joined participant of `session`.
    func identity(of session: ServerSession) throws(RoomError) -> Membership {
        try state.withLock { (s: inout State) throws(RoomError) in
            guard let membership = s.members[session.id],
                  s.rooms[membership.room]?[membership.user]?.phase == .joined
            else { throw Self.notJoined }
            return membership
        }
    }

    /// The outbox of the participant of `session`, if it is in a room.
    func outbox(of session: ServerSession) -> SessionOutbox? {
        state.withLock { s in
            s.members[session.id].flatMap { s.rooms[$0.room]?[$0.user]?.outbox }
        }
    }

    /// The joined participant of `session`, if any (for `customRequest`).
    func membership(of session: ServerSession) -> Membership? {
        try? identity(of: session)
    }

    /// The session of `user` in `room`, if that participant exists.
    func session(of user: String, in room: String) -> ServerSession? {
        state.withLock { $0.rooms[room]?[user]?.session }
    }

    /// What a departure leaves to do outside the lock.
    struct Departure: Sendable {
        var released: [MediaEndpointID] = []
        var flush: [SessionOutbox] = []
        /// The participants that left (with a cluster, their names are released).
        var departed: [Membership] = []
        /// The rooms this node no longer holds anyone of: their media scope is released after the endpoints.
        var emptied: [String] = []
    }

    /// Removes the participant of `session` (leaveRoom, or its session ended): the remaining participants get
    /// `participantLeft`, their subscriptions to it end, and an empty room closes. `nil` if it was in no room.
    /// `notifyDeparted` sends `participantEvicted` to the departing participant too (an application eviction).
    func remove(session: ServerSession, departure: RoomServerEvent.Departure,
                notifyDeparted: Bool = false) -> Departure? {
        state.withLock { s -> Departure? in
            guard let membership = s.members.removeValue(forKey: session.id),
                  s.rooms[membership.room]?[membership.user] != nil
            else { return nil }
            let (result, visible) = s.rooms.withRoom(membership.room) { (slot: inout Room?) -> (Departure, Bool) in
                let name = membership.room
                let me = slot![membership.user]!
                slot![me.name] = nil
                var result = Departure(released: Self.readyEndpoints(of: me, in: name), departed: [membership])
                if me.phase == .joined {
                    cluster?.post(RoomNotificationMethod.participantLeft.rawValue, room: name, user: me.name, payload: "")
                    if notifyDeparted {
                        me.outbox.enqueue(.participantEvicted)
                        result.flush.append(me.outbox)
                    }
                    result.released += Self.dropSubscriptions(to: me.name, in: &slot!)
                    if me.publishing == .live { events.publish(.participantUnpublished(room: name, user: me.name)) }
                    events.publish(.participantLeft(room: name, user: me.name, departure: departure))
                    let note = RoomNotification.participantLeft(.init(name: me.name)).encoded
                    for other in slot!.joined {
                        other.outbox.enqueue(note)
                        result.flush.append(other.outbox)
                    }
                }
                if slot!.isEmpty {
                    result.emptied.append(name)
                    if slot!.announced { events.publish(.roomClosed(room: name)) }
                    slot = nil
                }
                return (result, me.phase == .joined)
            }
            if visible { changed(&s) }
            return result
        }
    }

    /// Closes `name` for the application: every member gets `roomClosed`. Returns the members' sessions (to be
    /// disconnected once flushed) and what to release; `nil` for an unknown room.
    func close(room name: String) -> (sessions: [ServerSession], departure: Departure)? {
        state.withLock { s -> (sessions: [ServerSession], departure: Departure)? in
            guard let room = s.rooms.removeValue(forKey: name) else { return nil }
            if room.announced { changed(&s) }
            var result = Departure(emptied: [name])
            var sessions: [ServerSession] = []
            let note = RoomNotification.roomClosed(.init(room: name)).encoded
            for user in room.order {
                guard let member = room[user] else { continue }
                s.members[member.session.id] = nil
                result.departed.append(Membership(room: name, user: user))
                result.released += Self.readyEndpoints(of: member, in: name)
                sessions.append(member.session)
                guard member.phase == .joined else { continue }
                member.outbox.enqueue(note)
                result.flush.append(member.outbox)
                cluster?.post(RoomNotificationMethod.participantLeft.rawValue, room: name, user: user, payload: "")
                events.publish(.participantLeft(room: name, user: user, departure: .roomClosed))
            }
            if room.announced { events.publish(.roomClosed(room: name)) }
            return (sessions, result)
        }
    }

    /// Records a change an operator sees and tells ``changes``; call it under the lock, with the change.
    func changed(_ s: inout State) {
        s.version &+= 1
        changes.fire()
    }

    /// The rooms and their joined participants, in join order.
    var snapshot: [String: [String]] {
        state.withLock { s in s.rooms.all.filter(\.value.announced).mapValues { $0.joined.map(\.name) } }
    }

    static func readyEndpoints(of participant: Participant, in room: String) -> [MediaEndpointID] {
        participant.endpoints.compactMap { key, value in
            value == .ready ? MediaEndpointID(room: room, owner: participant.name, endpoint: key) : nil
        }
    }

    /// Ends every subscription to `publisher` in `room` and returns those the backend had created. Subscriptions
    /// still being created are dropped too: their creator finds them gone and releases the endpoint itself.
    static func dropSubscriptions(to publisher: String, in room: inout Room) -> [MediaEndpointID] {
        var released: [MediaEndpointID] = []
        for user in room.order {
            guard var other = room[user], let endpoint = other.endpoints[.subscriber(to: publisher)] else { continue }
            if endpoint == .ready {
                released.append(MediaEndpointID(room: room.name, owner: user, endpoint: .subscriber(to: publisher)))
            }
            other.endpoints[.subscriber(to: publisher)] = nil
            room[user] = other
        }
        return released
    }
}
