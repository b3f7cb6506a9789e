import JSONRPC
import Logging
public import RoomClusterCore
import RoomProtocol
import SharedObjectServer

extension RoomServer {
    /// The cluster event that asks the node holding a participant to evict it (``evict(_:from:)``).
    static let evictKind = "evict"

    /// The error of a join (or any call that needs Redis) while the cluster's Redis is unavailable. What Redis said
    /// (its address, the socket's error) is logged, never sent: the client learns only that the cluster is away.
    func clusterUnavailable(_ error: ClusterError, while doing: String) -> RPCErrorObject {
        logger.warning("cluster unavailable", metadata: ["while": "\(doing)", "error": "\(error)"])
        return RPCErrorObject(code: -32000, message: "cluster unavailable",
                              data: .string("the cluster is unreachable; nothing was reserved, try again later"))
    }

    /// Joins the cluster (``Configuration/cluster``): registers this node and starts applying the other nodes'
    /// events. ``start(_:)`` calls it; call it yourself for a server made with ``init(configuration:)``. Without
    /// a cluster it does nothing.
    public func startCluster() async throws(ClusterError) {
        guard let cluster else { return }
        try await cluster.start()
        operations.setCluster(.available)
        startClusterView()
        let node = cluster.nodeID
        Task { [weak self] in
            for await incoming in cluster.events {
                guard let self else { return }
                switch incoming {
                case .event(let event) where event.kind == RoomNotificationMethod.roomClosed.rawValue:
                    await self.closeLocalRoom(event.room)
                case .event(let event) where event.kind.hasPrefix("sharedObject."):
                    switch ClusterSharedObjects.delivery(of: event) {
                    case .update(let update)?: await self.sharedObjects?.deliverFromCluster(update: update)
                    case .message(let message)?: self.sharedObjects?.deliverFromCluster(message: message)
                    case nil: self.logger.debug("cluster: unreadable shared-object event", metadata: ["kind": "\(event.kind)"])
                    }
                case .event(let event) where event.kind == ClusterEvent.taken:
                    // Another node claimed the name of a participant of ours while this node was cut off or taken
                    // for dead: the name is that node's now, so ours goes (evicted: its client is told).
                    self.logger.warning("cluster: a name of this node was claimed by another node meanwhile",
                                        metadata: ["room": "\(event.room)", "user": "\(event.user)"])
                    _ = await self.evict(event.user, from: event.room)
                case .event(let event) where event.kind == ClusterEvent.released:
                    // A name Redis gave this node that it no longer holds was released by registering again: the
                    // other nodes may still list it (unless a participant of ours holds it again by now).
                    if self.registry.session(of: event.user, in: event.room) == nil {
                        self.announceLeft(event.user, from: event.room)
                    }
                case .event(let event) where event.kind == Self.evictKind:
                    // Another node's application evicts a participant; only the node that holds it acts.
                    if self.registry.session(of: event.user, in: event.room) != nil {
                        await self.evict(event.user, from: event.room)
                    }
                case .event(let event):
                    self.clusterViewLearned(event)
                    await self.settle(self.registry.apply(event))
                case .unavailable(let reason):
                    // docs/operations.md#readiness: /readyz answers 503 until Redis is back.
                    self.operations.setCluster(.unavailable(reason))
                    self.logger.warning("cluster unavailable", metadata: ["reason": "\(reason)"])
                case .restored:
                    self.operations.setCluster(.available)
                    self.logger.info("cluster restored: announcing local members, re-reading remote members")
                    self.registry.announceLocalMembers()
                    await self.resynchronize(with: cluster)
                    await self.sharedObjects?.registerObjectsWithCluster()
                }
            }
        }
        logger.info("joined the cluster", metadata: ["node": "\(node)", "cluster": "\(cluster)"])
    }

    /// After Redis came back: re-reads the members of every room with a local participant and tells the local
    /// members what changed. A read that fails is tried again (backoff from 100 ms to 2 s) until it succeeds or the
    /// server shuts down: a room skipped would keep a stale view of the other nodes for as long as it lives. It runs
    /// in the loop that applies the other nodes' events, which wait meanwhile: an event published after a read is
    /// applied after it.
    func resynchronize(with cluster: any ClusterBackplane) async {
        let node = cluster.nodeID
        var rooms = registry.localRooms, pause = Duration.milliseconds(100)
        while !rooms.isEmpty {
            var failed: [String] = []
            for room in rooms {
                do {
                    let members = try await cluster.members(of: room)
                    await settle(registry.resync(room: room, members: members, node: node))
                } catch {
                    failed.append(room)
                }
            }
            // During a new outage the reads fail until it ends, and its `.restored` resynchronizes again: this
            // one stops, so that the loop it runs in goes on to that outage's events (and /readyz says 503 meanwhile).
            guard !failed.isEmpty, !operations.isShuttingDown, !cluster.isRecovering else { return }
            logger.warning("cluster: could not re-read the members of some rooms; trying again",
                           metadata: ["rooms": "\(failed.count)", "in": "\(pause)"])
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(2))
            rooms = failed.filter { registry.localRooms.contains($0) }
        }
    }

    /// With a cluster: claims the reserved name across every node (104 when another node holds it) and learns the
    /// room's members on the other nodes. The local reservation is dropped when this fails.
    func claimInCluster(user: String, room: String, session: ServerSession) async throws {
        guard let cluster else { return }
        let claimed: Bool
        do {
            claimed = try await cluster.claim(user: user, room: room)
        } catch {
            // The claim's outcome is unknown (it may have run): given up like one that did.
            registry.cancelJoin(session: session)
            await giveUpClaim(user: user, room: room)
            throw clusterUnavailable(error, while: "joining")
        }
        guard claimed else {
            registry.cancelJoin(session: session)
            throw RoomError.existingUser(user, room: room)
        }
        do {
            let members = try await cluster.members(of: room)
            flush(registry.seedRemote(room: room, members: members, node: cluster.nodeID))
        } catch {
            registry.cancelJoin(session: session)
            await giveUpClaim(user: user, room: room)
            throw clusterUnavailable(error, while: "joining")
        }
    }

    /// With a cluster: gives up the name a join claimed and will not use (the join failed after its claim). Another
    /// node whose own join read the members in between listed it and told its members it joined: the
    /// `participantLeft` sent first tells them it did not stay (a node that never listed it ignores it).
    func giveUpClaim(user: String, room: String) async {
        announceLeft(user, from: room)
        await releaseName(.init(room: room, user: user))
    }

    /// With a cluster: tells the other nodes that `user` of `room`, a name this node gave up, left (a node that does
    /// not list it as this node's ignores it).
    func announceLeft(_ user: String, from room: String) {
        cluster?.post(RoomNotificationMethod.participantLeft.rawValue, room: room, user: user, payload: "")
    }

    /// With a cluster: records in Redis whether `user` publishes (what a join on another node lists). The other
    /// nodes' members were told already, by the event posted with the state change.
    func markPublishing(_ publishing: Bool, _ user: String, in room: String) async {
        guard let cluster else { return }
        do {
            try await cluster.setPublishing(publishing, user: user, room: room)
        } catch {
            logger.warning("cluster: could not record publishing", metadata: ["user": "\(user)", "error": "\(error)"])
        }
    }

    /// With a cluster: gives up the name of a participant that left this node.
    func releaseName(_ membership: RoomRegistry.Membership) async {
        guard let cluster else { return }
        do {
            try await cluster.release(user: membership.user, room: membership.room)
        } catch {
            // Redis is away: the name is registered again when it returns only if still held, which it is not;
            // a Redis that kept its data keeps the stale claim until this node's sweep (logged).
            logger.warning("cluster: could not release a name", metadata: [
                "room": "\(membership.room)", "user": "\(membership.user)", "error": "\(error)",
            ])
        }
    }
}
