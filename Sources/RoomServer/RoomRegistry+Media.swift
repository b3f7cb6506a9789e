import JSONRPC
import RoomClusterCore
import RoomProtocol
import SignalingSupport

extension RoomRegistry {
    /// Runs `body` on the joined participant of `session` and its room, both changed in place
    /// (``RoomTable/withRoom(_:_:)``, ``Room/checkOut(_:)``: neither the room's participants nor the participant's
    /// endpoints are copied), and writes the participant back when `body` returns or throws (a body that throws
    /// must not have changed it). While `body` runs, the room holds the participant without its endpoints and
    /// flows: read them from `me`. With `visible`, a body that returns is a change an operator sees
    /// (``changed(_:)``).
    func withJoined<T>(_ session: ServerSession, visible: Bool = false,
                       _ body: (inout Participant, inout Room) throws(RoomError) -> T) throws(RoomError) -> T {
        try state.withLock { (s: inout State) throws(RoomError) -> T in
            guard let membership = s.members[session.id],
                  s.rooms[membership.room]?[membership.user]?.phase == .joined
            else { throw Self.notJoined }
            let result = try s.rooms.withExisting(membership.room) { (room: inout Room) throws(RoomError) -> T in
                var me = room.checkOut(membership.user)!
                defer { room[me.name] = me }
                return try body(&me, &room)
            }
            if visible { changed(&s) }
            return result!
        }
    }

    /// Reserves the publisher endpoint (docs/wire-protocol.md#room-requests, `publishVideo`).
    func beginPublish(session: ServerSession) throws(RoomError) -> MediaEndpointID {
        try withJoined(session) { (me: inout Participant, room: inout Room) throws(RoomError) in
            guard me.publishing == .idle else {
                throw RoomError(.userGeneric, message: "'\(me.name)' is already publishing")
            }
            me.publishing = .starting
            me.endpoints[.publisher] = .creating(Self.queued(me.endpoints[.publisher]))
            me.flows[.publisher] = nil
            return MediaEndpointID(room: room.name, owner: me.name, endpoint: .publisher)
        }
    }

    /// Reserves the subscription of `session` to `sender` (docs/wire-protocol.md#room-naming, `receiveVideoFrom`:
    /// unknown → 102, yourself or not publishing → 105).
    func beginReceive(session: ServerSession, from sender: StreamSender) throws(RoomError) -> MediaEndpointID {
        try withJoined(session) { (me: inout Participant, room: inout Room) throws(RoomError) in
            // The publisher may be on another node of a cluster: this node's backend answers all the same.
            guard room.isMember(sender.user) else {
                throw RoomError(.userNotFound, message: "User '\(sender.user)' not found in room '\(room.name)'")
            }
            guard sender.user != me.name, room.isPublishing(sender.user) else {
                throw RoomError(.userNotStreaming, message: "User '\(sender.user)' is not publishing media")
            }
            let key = RoomEndpoint.subscriber(to: sender.user)
            switch me.endpoints[key] {
            case nil, .awaiting?: break
            case .creating?, .ready?:
                throw RoomError(.userGeneric, message: "already receiving from '\(sender.user)'")
            }
            me.endpoints[key] = .creating(Self.queued(me.endpoints[key]))
            me.flows[key] = nil
            return MediaEndpointID(room: room.name, owner: me.name, endpoint: key)
        }
    }

    /// What became of an endpoint the backend created (``finishCreating(_:session:claimed:)``).
    enum Creation {
        /// It is ready: the client candidates queued for it, and the outboxes to flush.
        case created(queued: [MediaCandidate], flush: [SessionOutbox])
        /// It was dropped meanwhile (its owner left, its publisher stopped): the caller releases it.
        case gone
        /// Its caller was told the request failed (the deadline passed): the reservation is dropped, the caller
        /// releases the endpoint.
        case abandoned
    }

    /// Marks a reserved endpoint created and returns the client candidates queued for it; a publisher goes live
    /// and the others get `participantPublished`. `claimed` (``/JSONRPC/RPCRequestContext/claimCompletion()``) is
    /// asked under the lock, just before.
    func finishCreating(_ endpoint: MediaEndpointID, session: ServerSession, claimed: () -> Bool) -> Creation {
        let creation = try? withJoined(session, visible: true) {
            (me: inout Participant, room: inout Room) throws(RoomError) -> Creation in
            guard case .creating(let queue)? = me.endpoints[endpoint.endpoint] else { throw Self.notJoined }
            guard claimed() else {
                me.endpoints[endpoint.endpoint] = nil
                if endpoint.endpoint == .publisher { me.publishing = .idle }
                return .abandoned
            }
            me.endpoints[endpoint.endpoint] = .ready
            guard endpoint.endpoint == .publisher else { return .created(queued: queue, flush: []) }
            me.publishing = .live
            events.publish(.participantPublished(room: room.name, user: me.name))
            let note = RoomNotification.participantPublished(.init(id: me.name)).encoded
            cluster?.post(RoomNotificationMethod.participantPublished.rawValue, room: room.name, user: me.name, payload: "")
            let others = room.joined.filter { $0.name != me.name }
            for other in others { other.outbox.enqueue(note) }
            return .created(queued: queue, flush: others.map(\.outbox))
        }
        return creation ?? .gone  // (thrown: no longer joined, or the endpoint dropped)
    }

    /// Drops a reserved endpoint whose creation failed.
    func abandonCreating(_ endpoint: MediaEndpointID, session: ServerSession) {
        _ = try? withJoined(session) { (me: inout Participant, _: inout Room) throws(RoomError) in
            guard case .creating? = me.endpoints[endpoint.endpoint] else { return }
            me.endpoints[endpoint.endpoint] = nil
            if endpoint.endpoint == .publisher { me.publishing = .idle }
        }
    }

    /// Stops publishing (`unpublishVideo`, 105 when not publishing): the others get `participantUnpublished`
    /// and lose their subscriptions. Returns what to release and flush.
    func unpublish(session: ServerSession) throws(RoomError) -> Departure {
        try withJoined(session, visible: true) { (me: inout Participant, room: inout Room) throws(RoomError) in
            guard me.publishing == .live else {
                throw RoomError(.userNotStreaming, message: "'\(me.name)' is not publishing media")
            }
            me.publishing = .idle
            me.endpoints[.publisher] = nil
            var result = Departure(released: [MediaEndpointID(room: room.name, owner: me.name, endpoint: .publisher)])
            room[me.name] = me
            _ = announceUnpublished(me.name, in: &room, into: &result)
            return result
        }
    }

    /// Tells everyone else in `room` that `publisher` stopped (`participantUnpublished`, here and with a cluster on
    /// every node) and ends their subscriptions to it, adding what to release and flush to `result`. Returns the
    /// participants whose subscription ended. Call it under the lock, once `publisher` is no longer live.
    func announceUnpublished(_ publisher: String, in room: inout Room, into result: inout Departure) -> [String] {
        let subscribers = room.order.filter { room[$0]?.endpoints[.subscriber(to: publisher)] != nil }
        result.released += Self.dropSubscriptions(to: publisher, in: &room)
        events.publish(.participantUnpublished(room: room.name, user: publisher))
        let note = RoomNotification.participantUnpublished(.init(name: publisher)).encoded
        cluster?.post(RoomNotificationMethod.participantUnpublished.rawValue, room: room.name, user: publisher,
                      payload: "")
        for other in room.joined where other.name != publisher {
            other.outbox.enqueue(note)
            result.flush.append(other.outbox)
        }
        return subscribers
    }

    /// Ends the subscription of `session` to `sender` (`unsubscribeFromVideo`: unknown → 102; not receiving is no
    /// error, as on a stock Kurento server, Kurento/kurento-room `Participant.cancelReceivingMedia`, which only logs
    /// it). Returns the endpoint to release, if the backend had created it.
    func unsubscribe(session: ServerSession, from sender: StreamSender) throws(RoomError) -> MediaEndpointID? {
        try withJoined(session, visible: true) { (me: inout Participant, room: inout Room) throws(RoomError) in
            guard room.isMember(sender.user) else {
                throw RoomError(.userNotFound, message: "User '\(sender.user)' not found in room '\(room.name)'")
            }
            let key = RoomEndpoint.subscriber(to: sender.user)
            switch me.endpoints.removeValue(forKey: key) {
            case .ready?: return MediaEndpointID(room: room.name, owner: me.name, endpoint: key)
            // Not receiving (nothing, or only queued candidates, which go with it): nothing to release.
            case .creating?, .awaiting?, nil: return nil
            }
        }
    }

    /// Takes one client candidate (`onIceCandidate`). `endpointName` is the caller's own name (its publisher) or
    /// another user's (its subscription to that user). Returns the endpoint when it exists; otherwise the candidate
    /// is queued (303 beyond the limit) and `nil` comes back, also for a user not in the room (yet), as a stock
    /// Kurento server queues it for a future subscription (Kurento/kurento-room `Participant.addIceCandidate`).
    func addCandidate(_ message: RoomIceCandidate, session: ServerSession) throws(RoomError) -> MediaEndpointID? {
        try withJoined(session) { (me: inout Participant, room: inout Room) throws(RoomError) in
            let key = RoomEndpoint(endpointName: message.endpointName, ownName: me.name)
            let candidate = MediaCandidate(message)
            switch me.endpoints[key] {
            case .ready?:
                return MediaEndpointID(room: room.name, owner: me.name, endpoint: key)
            case let pending:
                guard me.queuedCandidates < limits.maxQueuedCandidates else {
                    let limit = limits.maxQueuedCandidates
                    throw RoomError(.mediaEndpoint, message:
                        "too many ICE candidates queued before their endpoint exists (limit \(limit))")
                }
                switch pending {
                case .creating(let queue)?: me.endpoints[key] = .creating(queue + [candidate])
                default: me.endpoints[key] = .awaiting(Self.queued(pending) + [candidate])
                }
                return nil
            }
        }
    }

    /// Queues the server candidates of `endpoint` as `iceCandidate` notifications to its owner.
    func deliver(_ candidates: [MediaCandidate], of endpoint: MediaEndpointID) -> SessionOutbox? {
        state.withLock { s -> SessionOutbox? in
            guard let owner = s.rooms[endpoint.room]?[endpoint.owner] else { return nil }
            for candidate in candidates { owner.outbox.enqueue(.iceCandidate(candidate.message(for: endpoint))) }
            return owner.outbox
        }
    }

    static func queued(_ endpoint: Participant.Endpoint?) -> [MediaCandidate] {
        switch endpoint {
        case .awaiting(let queue)?, .creating(let queue)?: queue
        case .ready?, nil: []
        }
    }
}
