import JSONRPC
import RoomProtocol
import SignalingSupport

extension RoomRegistry {
    /// The rooms as operators see them (``OperationsSnapshot``), taken in one piece under the lock. Cheap: it reads
    /// what the registry holds, each outbox's depth and each connection's last measured round trip, and waits for
    /// nothing. `node` is this node's name in the cluster, if any. The rooms' media servers are not the registry's:
    /// ``RoomServer/operationsSnapshot()`` adds them.
    func operationsSnapshot(node: String?, generatedAt: String) -> OperationsSnapshot {
        state.withLock { s in
            var rooms: [OperationsSnapshot.Room] = []
            for name in s.rooms.keys.sorted() {
                guard let room = s.rooms[name], room.announced else { continue }
                var participants = room.joined.map { Self.operationsEntry(of: $0, node: node) }
                for user in room.remote.keys.sorted() {
                    guard let member = room.remote[user] else { continue }
                    // Its media is on its own node: the flow of its stream is unknown here.
                    let streams = member.publishing ? [RoomNaming.defaultStreamId] : []
                    participants.append(OperationsSnapshot.Participant(
                        name: user, node: member.node, remote: true, streams: streams,
                        streamFlows: Dictionary(uniqueKeysWithValues: streams.map { ($0, OperationsSnapshot.Flow()) })))
                }
                rooms.append(OperationsSnapshot.Room(name: name, participants: participants))
            }
            return OperationsSnapshot(generatedAt: generatedAt, version: s.version, node: node, rooms: rooms)
        }
    }

    /// `duration` in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000) / 1000
    }

    /// One local participant's entry: its streams and the publishers whose endpoint it has, with the media flow the
    /// backend reported on each (into the server for its stream, out of it for a subscription), its outbox and its
    /// connection. Never its session id.
    static func operationsEntry(of participant: Participant, node: String?) -> OperationsSnapshot.Participant {
        let subscriptions = participant.endpoints.compactMap { key, value -> String? in
            guard case .subscriber(let user) = key, value == .ready else { return nil }
            return user
        }.sorted()
        let streams = participant.publishing == .live ? [RoomNaming.defaultStreamId] : []
        let connection = participant.session.connection
        return OperationsSnapshot.Participant(
            name: participant.name, node: node, remote: false, streams: streams, subscriptions: subscriptions,
            connected: connection != nil, outboxDepth: participant.outbox.depth,
            rttMilliseconds: connection?.roundTripTime.map(Self.milliseconds),
            streamFlows: Dictionary(uniqueKeysWithValues: streams.map { stream in
                (stream, OperationsSnapshot.Flow(participant.flows[.publisher]?[.inbound]))
            }),
            subscriptionFlows: Dictionary(uniqueKeysWithValues: subscriptions.map { user in
                (user, OperationsSnapshot.Flow(participant.flows[.subscriber(to: user)]?[.outbound]))
            }))
    }
}
