import RoomProtocol
import SDP

/// What a ``RoomClient`` knows about its room: whether it is in, what it publishes and who else is there. Kept
/// under the client's lock; every change comes from a result or a notification, applied in wire order.
struct PeersModel {
    /// The other participants, in the order the client learnt of them.
    private(set) var peers: [Peer] = []
    /// The streams the local user publishes.
    var localStreams: [String] = []
    /// Whether the local user is in the room.
    private(set) var isJoined = false
    /// The participant called `identifier`; `nil` for anyone unknown (NBMRoomClient fell back to the local peer,
    /// docs/wire-protocol.md#room-client-bugs, bug 3).
    func peer(withIdentifier identifier: String) -> Peer? { peers.first { $0.identifier == identifier } }

    /// Enters the room with the participants a join result listed.
    mutating func join(_ participants: [RoomParticipant]) -> [Peer] {
        peers = participants.map(Peer.init)
        isJoined = true
        return peers
    }

    /// Out of the room: nobody is known and nothing is published.
    mutating func reset() {
        peers = []
        localStreams = []
        isJoined = false
    }

    /// Applies `notification` for the local user `ownName` and returns the event that reports it.
    mutating func apply(_ notification: RoomNotification, ownName: String) -> RoomEvent {
        switch notification {
        case .participantJoined(let joined):
            // A name seen again replaces the stale entry (the server reuses names once a participant left).
            let peer = Peer(identifier: joined.id)
            remove(joined.id)
            peers.append(peer)
            return .participantJoined(peer)
        case .participantPublished(let published):
            let index = peers.firstIndex { $0.identifier == published.id } ?? {
                peers.append(Peer(identifier: published.id))
                return peers.count - 1
            }()
            for stream in published.streams { peers[index].addStream(stream.id) }
            return .participantPublished(peers[index])
        case .participantUnpublished(let unpublished):
            guard let index = peers.firstIndex(where: { $0.identifier == unpublished.name }) else {
                return .participantUnpublished(Peer(identifier: unpublished.name))
            }
            peers[index].streams = []
            return .participantUnpublished(peers[index])
        case .participantLeft(let left):
            return .participantLeft(remove(left.name) ?? Peer(identifier: left.name))
        case .participantEvicted:
            reset()
            return .participantEvicted
        case .iceCandidate(let wire):
            let candidate = IceCandidate(candidate: wire.candidate, sdpMid: wire.sdpMid.isEmpty ? nil : wire.sdpMid,
                                         sdpMLineIndex: wire.sdpMLineIndex)
            return .iceCandidate(candidate, endpoint: RoomEndpoint(endpointName: wire.endpointName, ownName: ownName))
        case .sendMessage(let message):
            return .message(message.message, from: message.user)
        case .privateMessage(let message):
            return .privateMessage(message.message, from: message.user)
        case .mediaError(let error):
            let endpoint = error.endpointName.map { RoomEndpoint(endpointName: $0, ownName: ownName) }
            if endpoint == .publisher { localStreams = [] }
            return .mediaError(error.error, endpoint: endpoint)
        case .roomClosed(let closed):
            reset()
            return .roomClosed(room: closed.room)
        }
    }

    /// The events that take a client from knowing `before` to knowing `after`: who left, who joined (and publishes),
    /// who started or stopped publishing; in `before`'s order, then `after`'s.
    static func differences(from before: [Peer], to after: [Peer]) -> [RoomEvent] {
        var events: [RoomEvent] = []
        for old in before where !after.contains(where: { $0.identifier == old.identifier }) {
            events.append(.participantLeft(old))
        }
        for new in after {
            guard let old = before.first(where: { $0.identifier == new.identifier }) else {
                events.append(.participantJoined(Peer(identifier: new.identifier)))
                if !new.streams.isEmpty { events.append(.participantPublished(new)) }
                continue
            }
            if old.streams.isEmpty, !new.streams.isEmpty { events.append(.participantPublished(new)) }
            if !old.streams.isEmpty, new.streams.isEmpty { events.append(.participantUnpublished(new)) }
        }
        return events
    }

    /// Removes and returns the participant called `identifier`, if known.
    @discardableResult
    private mutating func remove(_ identifier: String) -> Peer? {
        guard let index = peers.firstIndex(where: { $0.identifier == identifier }) else { return nil }
        return peers.remove(at: index)
    }
}
