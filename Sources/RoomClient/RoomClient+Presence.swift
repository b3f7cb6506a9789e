import JSONRPC
import JSONRPCWebSocket
import SignalingSupport

extension RoomClient {
    /// Waits until `user` is in the room and returns it (at once when it is already there).
    /// - Throws: ``ParticipantWaitError/timedOut(missing:)`` when `timeout` passes first (on
    ///   ``/JSONRPCWebSocket/SignalingClientConfiguration/clock``), ``ParticipantWaitError/notInRoom`` when the local user
    ///   is not in the room or stops being in it meanwhile, ``/JSONRPC/BroadcastOverflow`` when the wait fell
    ///   behind the room's events, `CancellationError` when the calling task is cancelled.
    @discardableResult
    public func waitForParticipant(named user: String, timeout: Duration) async throws -> Peer {
        let peers = try await waitForParticipants(ParticipantPresence(users: [user]), timeout: timeout)
        return peers.first { $0.identifier == user } ?? Peer(identifier: user)
    }

    /// Waits until `presence` is met by the other participants and returns them (at once when it is met already).
    /// It reads the room's events, so it sees a participant that joins and leaves again before it looks.
    /// - Throws: as ``waitForParticipant(named:timeout:)``.
    @discardableResult
    public func waitForParticipants(_ presence: ParticipantPresence, timeout: Duration) async throws -> [Peer] {
        let events = self.events  // before looking, so that nothing is missed in between
        guard isJoined else { throw ParticipantWaitError.notInRoom }
        let now = peers
        if presence.isSatisfied(by: now) { return now }
        let clock = configuration.clock
        return try await withThrowingTaskGroup(of: [Peer]?.self) { group in
            group.addTask {
                for try await event in events {
                    switch event {
                    case .participantEvicted, .roomClosed, .connectionStateChanged(.disconnected):
                        throw ParticipantWaitError.notInRoom
                    default:
                        let peers = self.peers
                        if presence.isSatisfied(by: peers) { return peers }
                    }
                }
                try Task.checkCancellation()
                throw ParticipantWaitError.notInRoom
            }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let peers = first else {
                throw ParticipantWaitError.timedOut(missing: presence.missing(from: self.peers))
            }
            return peers
        }
    }
}
