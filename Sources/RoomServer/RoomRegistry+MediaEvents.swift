import JSONRPC
import RoomProtocol
import SignalingSupport

/// What a media backend reports after the fact (``MediaEvent``), applied to the rooms.
extension RoomRegistry {
    /// Queues server candidates of `endpoint` that the backend found after its `create…` call returned, while the
    /// endpoint is being created or exists (a candidate of an endpoint that ended meanwhile is dropped).
    func deliverFound(_ candidates: [MediaCandidate], of endpoint: MediaEndpointID) -> SessionOutbox? {
        state.withLock { s -> SessionOutbox? in
            guard let owner = s.rooms[endpoint.room]?[endpoint.owner], owner.phase == .joined else { return nil }
            switch owner.endpoints[endpoint.endpoint] {
            case .creating?, .ready?: break
            case .awaiting?, nil: return nil
            }
            for candidate in candidates { owner.outbox.enqueue(.iceCandidate(candidate.message(for: endpoint))) }
            return owner.outbox
        }
    }

    /// Drops endpoints the backend reports failed (docs/wire-protocol.md#media-errors): `failed` of `room`, or every
    /// endpoint of the room when `nil`. A failed publisher stops publishing (everyone else gets
    /// `participantUnpublished` and loses the subscription to it); a failed subscription ends. Each participant who
    /// lost an endpoint that existed then gets `mediaError {error, endpointName}` for it, after those notifications.
    /// An endpoint still being created is dropped too: its creator finds it gone, releases it and fails its request.
    /// Returns what to release and flush.
    func dropFailed(_ failed: Set<MediaEndpointID>?, in room: String, reason: String) -> Departure {
        state.withLock { s -> Departure in
            let result = s.rooms.withExisting(room) { current -> Departure in
                var result = Departure()
                var errors: [(owner: String, endpointName: String)] = []
                func fails(_ user: String, _ key: RoomEndpoint) -> Bool {
                    failed?.contains(MediaEndpointID(room: room, owner: user, endpoint: key)) ?? true
                }
                // Publishers first, so that a subscriber hears `participantUnpublished` before its `mediaError`, and does
                // not subscribe again to a stream that is gone.
                for user in current.order {
                    guard var me = current[user], me.phase == .joined, fails(user, .publisher),
                          let endpoint = me.endpoints[.publisher] else { continue }
                    if case .awaiting = endpoint { continue }
                    me.endpoints[.publisher] = nil
                    let wasLive = me.publishing == .live
                    me.publishing = .idle
                    current[user] = me
                    guard endpoint == .ready else { continue }
                    result.released.append(MediaEndpointID(room: room, owner: user, endpoint: .publisher))
                    errors.append((user, user))
                    if wasLive {
                        for subscriber in announceUnpublished(user, in: &current, into: &result) {
                            errors.append((subscriber, user))
                        }
                    }
                }
                for user in current.order {
                    guard var me = current[user], me.phase == .joined else { continue }
                    for (key, endpoint) in me.endpoints {
                        guard case .subscriber(let publisher) = key, fails(user, key) else { continue }
                        if case .awaiting = endpoint { continue }
                        me.endpoints[key] = nil
                        if endpoint == .ready {
                            result.released.append(MediaEndpointID(room: room, owner: user, endpoint: key))
                            errors.append((user, publisher))
                        }
                    }
                    current[user] = me
                }
                for (owner, endpointName) in errors {
                    guard let outbox = current[owner]?.outbox else { continue }
                    outbox.enqueue(RoomNotification.mediaError(.init(error: reason, endpointName: endpointName)).encoded)
                    result.flush.append(outbox)
                }
                return result
            }
            guard let result else { return Departure() }
            if !result.released.isEmpty { changed(&s) }
            return result
        }
    }

    /// Records whether media flows on `endpoint`, for operators (``OperationsSnapshot``).
    func recordFlow(_ flow: MediaFlow, on endpoint: MediaEndpointID) {
        state.withLock { s in
            guard s.rooms[endpoint.room]?[endpoint.owner]?.endpoints[endpoint.endpoint] != nil else { return }
            s.rooms.withExisting(endpoint.room) { room in
                var owner = room[endpoint.owner]!
                owner.flows[endpoint.endpoint, default: [:]][flow.direction, default: [:]][flow.kind] = flow.flowing
                room[endpoint.owner] = owner
            }
            changed(&s)
        }
    }
}

extension RoomRegistry {
    /// Takes every endpoint the backend created out of the rooms, for a shutdown that releases them
    /// (``RoomServer/shutdown()``): the participants stay, without media. Returns the endpoints and the rooms.
    func takeAllMedia() -> (endpoints: [MediaEndpointID], rooms: [String]) {
        state.withLock { s in
            var endpoints: [MediaEndpointID] = []
            for name in Array(s.rooms.keys) {
                s.rooms.withExisting(name) { room in
                    for user in room.order {
                        guard var member = room[user] else { continue }
                        endpoints += Self.readyEndpoints(of: member, in: name)
                        for (key, endpoint) in member.endpoints where endpoint == .ready { member.endpoints[key] = nil }
                        if member.publishing == .live { member.publishing = .idle }
                        room[user] = member
                    }
                }
            }
            return (endpoints, Array(s.rooms.keys))
        }
    }
}
