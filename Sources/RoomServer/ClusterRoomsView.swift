import Foundation
import RoomClusterCore
import SignalingSupport

/// With a cluster: what the other nodes hold, for the operations snapshot (docs/operations.md#rooms). Every
/// interval of its store (``/RoomClusterCore/ClusterSnapshotStore``; on Redis, the heartbeat interval) it writes this
/// node's own participants there when they changed or are half-way to expiring, and reads the other live nodes'
/// snapshots; ``merged(into:)`` adds them to this node's snapshot. Another node's event that one of its participants
/// left, or that it died, drops that participant (or all of its participants) at once, before the next read.
final class ClusterRoomsView: Sendable {
    private struct State {
        /// The other nodes' own participants, by node.
        var others: [String: OperationsSnapshot] = [:]
        var task: Task<Void, Never>?
        var stopped = false
    }

    private let state = LockedValue(State())
    private let snapshots: any ClusterSnapshotStore

    init(store: any ClusterSnapshotStore) {
        snapshots = store
    }

    /// Starts the loop: `local` is this node's snapshot, `changed` is told when what the other nodes hold changed.
    func start(local: @escaping @Sendable () -> OperationsSnapshot, changed: @escaping @Sendable () -> Void) {
        let period = snapshots.interval, renewal = snapshots.lifetime / 2
        let task = Task { [snapshots, weak self] in
            var written: (rooms: [OperationsSnapshot.Room], at: ContinuousClock.Instant)?
            // (ends with the view: a server let go without shutdown() leaves no loop behind)
            while !Task.isCancelled, self != nil {
                let mine = Self.own(local())
                if written.map({ $0.rooms != mine.rooms || .now - $0.at >= renewal }) ?? true,
                   let text = try? String(decoding: JSONEncoder().encode(mine), as: UTF8.self) {
                    // (a failed write is tried again at the next turn)
                    if (try? await snapshots.write(text)) != nil { written = (mine.rooms, .now) }
                }
                if let texts = try? await snapshots.others() {
                    let others = texts.compactMapValues { try? JSONDecoder().decode(OperationsSnapshot.self, from: Data($0.utf8)) }
                    if self?.replace(others) == true { changed() }
                }
                try? await Task.sleep(for: period)
            }
        }
        let late = state.withLock { s -> Bool in
            if s.stopped { return true }
            s.task = task
            return false
        }
        if late { task.cancel() }
    }

    /// Stops the loop and removes this node's snapshot from the store.
    func stop() async {
        let task = state.withLock { s -> Task<Void, Never>? in
            s.stopped = true
            defer { s.task = nil }
            return s.task
        }
        task?.cancel()
        await task?.value
        await snapshots.remove()
    }

    /// Keeps `others`; true when it differs from what was kept (generation times aside).
    private func replace(_ others: [String: OperationsSnapshot]) -> Bool {
        state.withLock { s in
            let changed = s.others.mapValues(\.rooms) != others.mapValues(\.rooms)
            s.others = others
            return changed
        }
    }

    /// What another node's event says about its participants, applied at once: it died (a `departed` event: its
    /// snapshot is dropped) or one of them left its room. True when that changed the view.
    func note(origin: String, room: String, user: String, departed: Bool) -> Bool {
        state.withLock { s in
            guard var other = s.others[origin] else { return false }
            if departed {
                s.others[origin] = nil
                return true
            }
            guard let index = other.rooms.firstIndex(where: { $0.name == room }),
                  other.rooms[index].participants.contains(where: { $0.name == user })
            else { return false }
            other.rooms[index].participants.removeAll { $0.name == user }
            if other.rooms[index].participants.isEmpty { other.rooms.remove(at: index) }
            s.others[origin] = other
            return true
        }
    }

    /// This node's snapshot with the other nodes' participants: a room with members here lists the members of other
    /// nodes that this node knows from their events, with what their node says of them when it agrees on their
    /// streams; a room without members here lists what the other nodes say, by name; totals over all of them.
    func merged(into local: OperationsSnapshot) -> OperationsSnapshot {
        let others = state.withLock { $0.others }
        guard !others.isEmpty else { return local }
        var theirs: [String: [OperationsSnapshot.Participant]] = [:]
        var servers: [String: String] = [:]
        for id in others.keys.sorted() {
            for room in others[id]!.rooms {
                for var participant in room.participants where !participant.remote && participant.node == id {
                    participant.remote = true
                    theirs[room.name, default: []].append(participant)
                }
                if servers[room.name] == nil { servers[room.name] = room.mediaServer }
            }
        }
        var rooms = local.rooms.map { room in
            var room = room
            room.participants = room.participants.map { known in
                guard known.remote,
                      let told = theirs[room.name]?.first(where: { $0.name == known.name && $0.node == known.node }),
                      told.streams == known.streams
                else { return known }
                return told
            }
            return room
        }
        let here = Set(local.rooms.map(\.name))
        for (name, participants) in theirs where !here.contains(name) {
            rooms.append(.init(name: name, mediaServer: servers[name], participants: participants.sorted { $0.name < $1.name }))
        }
        return OperationsSnapshot(generatedAt: local.generatedAt, version: local.version, node: local.node,
                                  rooms: rooms.sorted { $0.name < $1.name })
    }

    /// `snapshot` with this node's own participants only (what it writes for the others).
    static func own(_ snapshot: OperationsSnapshot) -> OperationsSnapshot {
        let rooms = snapshot.rooms.compactMap { room -> OperationsSnapshot.Room? in
            var room = room
            room.participants.removeAll(where: \.remote)
            return room.participants.isEmpty ? nil : room
        }
        return OperationsSnapshot(generatedAt: snapshot.generatedAt, version: snapshot.version, node: snapshot.node,
                                  rooms: rooms)
    }
}
