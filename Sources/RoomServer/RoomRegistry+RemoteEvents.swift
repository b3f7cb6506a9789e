import JSONRPC
import RoomClusterCore
import SignalingSupport

extension RoomRegistry {
    /// Publishes on ``RoomServer/events`` what changed among the participants of other nodes in `room` since they
    /// were `before` (docs/architecture.md#cluster): who joined (and publishes), started or stopped publishing, and
    /// left (`departure`: ``RoomServerEvent/Departure/evicted`` when its node died, else
    /// ``RoomServerEvent/Departure/left``), each in name order. Nothing before the room is announced: its first
    /// local join tells of every participant of other nodes it knows then (``commitJoin(session:claimed:)``).
    /// Call it under the lock, with the change.
    func publishRemoteChanges(in room: Room, from before: [String: RemoteMember],
                              departure: RoomServerEvent.Departure = .left) {
        guard room.announced else { return }
        for user in before.keys.sorted() where room.remote[user] == nil {
            if before[user]!.publishing { events.publish(.participantUnpublished(room: room.name, user: user)) }
            events.publish(.participantLeft(room: room.name, user: user, departure: departure))
        }
        for user in room.remote.keys.sorted() {
            let publishing = room.remote[user]!.publishing
            if let was = before[user]?.publishing {
                guard was != publishing else { continue }
                events.publish(publishing ? .participantPublished(room: room.name, user: user)
                                          : .participantUnpublished(room: room.name, user: user))
            } else {
                events.publish(.participantJoined(room: room.name, user: user))
                if publishing { events.publish(.participantPublished(room: room.name, user: user)) }
            }
        }
    }

    /// The node that holds `user` in `room`, as this node knows it: `local` for a participant of this node (joined
    /// or joining), another node's id for one of another node, `nil` when neither.
    func node(of user: String, in room: String, local: String) -> String? {
        state.withLock { s in
            guard let room = s.rooms[room] else { return nil }
            return room[user] != nil ? local : room.remote[user]?.node
        }
    }

    /// What the other nodes hold changed (``ClusterRoomsView``): the snapshot's version counts it, and the `/admin`
    /// feed sends a fresh one.
    func remoteViewChanged() {
        state.withLock { changed(&$0) }
    }
}
