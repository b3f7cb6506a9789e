public import CoreMetrics
import Dispatch
public import RoomClusterCore
import SignalingSupport

/// One room-server process's place in a cluster: name claims, the room's members across nodes, room events to
/// and from the other nodes, its heartbeat, and the sweep of dead nodes (docs/architecture.md#cluster).
///
/// - A name is claimed atomically in Redis (``claim(user:room:)``): of two nodes that claim one name at once,
///   exactly one wins.
/// - ``post(_:room:user:payload:)`` queues an event synchronously (call it under the lock that orders your state
///   changes) and the other nodes receive the events of one node in that order, once each (``events``).
/// - A node that stops renewing its heartbeat for ``ClusterConfiguration/nodeTimeout`` is dead: one survivor
///   removes its participants and sends ``/RoomClusterCore/ClusterEvent/departed`` for each, on the dead node's
///   behalf.
/// - When Redis goes away, claims and reads fail with ``/RoomClusterCore/ClusterError/unavailable(_:)``, events are
///   lost, and ``/RoomClusterCore/ClusterIncoming/unavailable(_:)`` says so; when it comes back the node registers
///   again every participant it still holds, then ``/RoomClusterCore/ClusterIncoming/restored`` tells the server to
///   resynchronize its view of remote members.
/// - It fails fast rather than wait: claims and membership, events, and heartbeats each have a connection of their
///   own (chat never delays a join), each with a bounded queue and a deadline per command from when it is queued;
///   once any of them or the subscription finds Redis gone, every command fails at once until Redis answers again
///   (``RedisConnection``). Events that cannot be queued or sent are lost, and reported the same way:
///   ``/RoomClusterCore/ClusterIncoming/unavailable(_:)``, then ``/RoomClusterCore/ClusterIncoming/restored`` once
///   Redis takes them again.
public final class ClusterNode: Sendable {
    /// What the node hears (``/RoomClusterCore/ClusterIncoming``: an event of another node, Redis unavailable,
    /// restored).
    public typealias Incoming = ClusterIncoming

    /// The configuration it runs with.
    public let configuration: ClusterConfiguration
    /// What the node hears, for one reader.
    public let events: AsyncStream<Incoming>
    /// Feeds ``events``: bounded, with changes of state never dropped.
    let continuation: IncomingDelivery
    let keys: ClusterKeys
    /// Claims, membership, media records and shared objects, in call order.
    let redis: RedisConnection
    /// Events (``post(_:room:user:payload:)``), in call order, apart so that chat never delays a join.
    let fanout: RedisConnection
    /// Heartbeats and sweeps, apart so that a long queue of events never delays a heartbeat.
    let liveness: RedisConnection

    struct State {
        /// The participants this node holds (room → users) and who of them publishes: registered again after a
        /// Redis restart.
        var owned: [String: Set<String>] = [:]
        var publishing: Set<String> = []  // member entries
        var sequence: UInt64 = 0
        var subscriber: RedisSubscriber?
        var loops: [Task<Void, Never>] = []
        var dropped = 0
        var subscribedOnce = false
        /// ``halt()`` ran: the node is gone, with no goodbye to say.
        var halted = false
        var subscribedWaiter: CheckedContinuation<Bool, Never>?
        /// Why the node reports Redis unavailable, from ``/RoomClusterCore/ClusterIncoming/unavailable(_:)`` until
        /// ``/RoomClusterCore/ClusterIncoming/restored``.
        var outage: String?
        /// Whether the subscription is up (confirmed, and not lost since).
        var subscribed = false
        /// How many times the subscription was confirmed: a recovery whose subscription was lost and made again
        /// meanwhile starts over (``ClusterNode+Outage``).
        var subscriptions: UInt64 = 0
        /// Registers again until it succeeds, during an outage.
        var recovery: Task<Void, Never>?
        /// How many joins of this node hold each member entry (`room\nuser`): a join's claim counts one, its release
        /// one less, and Redis is told to release only when none is left (a name left and joined again on this node
        /// before the release ran stays claimed).
        var holds: [String: Int] = [:]
        /// The other nodes the last sweep found alive, and those heard from since: after an outage, the node waits
        /// for them to register again (at most the node timeout) before it reports
        /// ``/RoomClusterCore/ClusterIncoming/restored`` or lets a claim through.
        var knownAlive: Set<String> = []
        /// No sweep before this instant: a node that could not reach Redis cannot judge the others' heartbeats, so
        /// it sweeps again only after a whole node timeout with Redis (``ClusterNode+Outage``).
        var sweepsFrom: ContinuousClock.Instant?
    }
    let state = LockedValue(State())
    /// Round trips and events (docs/operations.md#metrics), when metrics are on.
    let metrics: ClusterMetrics?

    /// A node with `configuration`; ``start()`` joins the cluster. Its metrics go to `metricsFactory`
    /// (``ClusterMetrics``; default: whatever the process bootstrapped, read now).
    public init(configuration: ClusterConfiguration, metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        self.configuration = configuration
        keys = ClusterKeys(prefix: configuration.keyPrefix)
        let metrics = ClusterMetrics(factory: metricsFactory)
        self.metrics = metrics
        func connection() -> RedisConnection {
            RedisConnection(url: configuration.redis, timeout: configuration.timeout,
                            capacity: configuration.queueCapacity, roundTrip: metrics?.roundTrip)
        }
        redis = connection()
        fanout = connection()
        liveness = connection()
        (events, continuation) = IncomingDelivery.makeStream(capacity: configuration.eventCapacity)
        // One connection that finds Redis gone makes the node's commands fail fast on all of them.
        for connection in [redis, fanout, liveness] {
            connection.onLoss { [weak self] reason in self?.beginOutage(reason) }
        }
        // Events the server did not take in time are lost: an outage, so that it resynchronizes.
        continuation.onOverflow { [weak self] reason in self?.beginOutage(reason) }
    }

    /// Registers the node, subscribes to every room's channel and starts the heartbeat and the sweep; fails with
    /// ``RedisError`` when Redis cannot be reached, and then leaves nothing running: the node is stopped (its
    /// ``events`` end) and no longer announces itself alive.
    public func start() async throws(RedisError) {
        do throws(RedisError) {
            try await register()
            let subscriber = RedisSubscriber(url: configuration.redis, channels: [], patterns: [keys.channelPattern],
                                             timeout: configuration.timeout, pingInterval: configuration.heartbeatInterval,
                                             capacity: configuration.eventCapacity)
            let listening = Task { await self.listen(to: subscriber) }
            let beating = Task { await self.heartbeat() }
            state.withLock { s in
                s.subscriber = subscriber
                s.loops = [listening, beating]
            }
            // Subscribed before start returns, so no event sent after it is missed.
            try await waitUntilSubscribed()
        } catch {
            await abandonStart()
            throw error
        }
    }

    /// Undoes a start that failed: stops the subscriber, the heartbeat and any recovery, ends ``events``, waits for
    /// the heartbeat to end (so that it cannot renew the key again) and removes the heartbeat key, best-effort; the
    /// node leaves `nodes` too unless a sweep has something to remove for it (a previous run's participants).
    private func abandonStart() async {
        let loops = state.withLock { $0.loops }
        halt()
        for loop in loops { await loop.value }
        _ = try? await liveness.command([
            "EVAL", ClusterScripts.abandon, "3", keys.node(configuration.nodeID), keys.nodeMembers(configuration.nodeID),
            keys.nodes, configuration.nodeID,
        ])
    }

    /// Leaves the cluster: every participant it still holds departs (``/RoomClusterCore/ClusterEvent/departed`` to the
    /// other nodes) and is released, its keys are removed, and it stops.
    public func stop() async {
        let (owned, halted, loops) = state.withLock { ($0.owned, $0.halted, $0.loops) }
        guard !halted else { return }
        // The heartbeat ends first, so that it cannot add the node back after it was removed.
        for loop in loops {
            loop.cancel()
        }
        if let beating = loops.last { await beating.value }
        for (room, users) in owned {
            for user in users {
                post(ClusterEvent.departed, room: room, user: user, payload: "")
                try? await release(user: user, room: room)
            }
        }
        _ = try? await liveness.transaction([
            ["DEL", keys.node(configuration.nodeID), keys.nodeMembers(configuration.nodeID)],
            ["SREM", keys.nodes, configuration.nodeID],
        ])
        halt()
    }

    /// Stops without a goodbye, as a killed process would: its keys expire and a survivor sweeps its participants
    /// (for failure drills and tests; ``stop()`` is the goodbye).
    public func halt() {
        let (subscriber, loops) = state.withLock { s in
            defer { s.subscriber = nil; s.loops = []; s.recovery = nil; s.halted = true }
            return (s.subscriber, s.loops + [s.recovery].compactMap { $0 })
        }
        subscriber?.stop()
        loops.forEach { $0.cancel() }
        continuation.finish()
    }

    // MARK: Names and members

    /// Claims `user` in `room` for this node: true when it is now this node's, false when any node holds it.
    public func claim(user: String, room: String) async throws(RedisError) -> Bool {
        let entry = ClusterKeys.entry(room: room, user: user)
        // During an outage (until `.restored`) no claim goes through: after a Redis restart the other
        // nodes' names come back only as they register again, and a claim meanwhile could take one of them.
        if let outage = state.withLock({ $0.outage }) { throw .unavailable("cluster recovering: \(outage)") }
        let reply = try await redis.command([
            "EVAL", ClusterScripts.claim, "2", keys.members(room), keys.nodeMembers(configuration.nodeID),
            user, configuration.nodeID, entry,
        ])
        guard reply == .integer(1) else { return false }
        state.withLock { s in
            _ = s.owned[room, default: []].insert(user)
            s.holds[entry, default: 0] += 1
        }
        return true
    }

    /// Gives up `user` in `room` if this node holds it (once per successful ``claim(user:room:)``; the name is
    /// released in Redis when the last of them is given up).
    public func release(user: String, room: String) async throws(RedisError) {
        let entry = ClusterKeys.entry(room: room, user: user)
        let last = state.withLock { s -> Bool in
            let holds = (s.holds[entry] ?? 1) - 1
            guard holds <= 0 else {
                s.holds[entry] = holds
                return false
            }
            s.holds[entry] = nil
            s.owned[room]?.remove(user)
            if s.owned[room]?.isEmpty == true { s.owned[room] = nil }
            s.publishing.remove(entry)
            return true
        }
        guard last else { return }
        _ = try await redis.command([
            "EVAL", ClusterScripts.release, "3", keys.members(room), keys.publishers(room),
            keys.nodeMembers(configuration.nodeID), user, configuration.nodeID, entry,
        ])
    }

    /// Marks `user` of `room` as publishing or not (what ``members(of:)`` reports).
    public func setPublishing(_ publishing: Bool, user: String, room: String) async throws(RedisError) {
        let entry = ClusterKeys.entry(room: room, user: user)
        state.withLock { s in
            if publishing { s.publishing.insert(entry) } else { s.publishing.remove(entry) }
        }
        _ = try await redis.command([publishing ? "SADD" : "SREM", keys.publishers(room), user])
    }

    /// A participant of a room and the node that holds it (``/RoomClusterCore/ClusterMember``).
    public typealias Member = ClusterMember

    /// Every participant of `room` on every node, sorted by name. Fails with
    /// ``/RoomClusterCore/ClusterError/unavailable(_:)`` during an outage (until
    /// ``/RoomClusterCore/ClusterIncoming/restored``), like a claim: a read of a Redis that came back before the other
    /// nodes registered again would miss their participants.
    public func members(of room: String) async throws(RedisError) -> [Member] {
        // A command during an outage can go through (one per reconnect interval tries Redis again): after a restart
        // it would read a Redis that lists only the nodes that registered so far, and a resync would then tell the
        // local members that the others left.
        if let outage = state.withLock({ $0.outage }) { throw .unavailable("cluster recovering: \(outage)") }
        let replies = try await redis.transaction([["HGETALL", keys.members(room)], ["SMEMBERS", keys.publishers(room)]])
        // An error of one command inside EXEC comes back in its place in EXEC's array, not as EXEC's error
        // (https://redis.io/docs/latest/develop/reference/errors/common/execabort/: "a WRONGTYPE error makes only that
        // command fail"): read as an empty room, it would tell every member that the others left.
        guard let parts = replies.array, parts.count == 2, let hash = parts[0].array, let publishing = parts[1].array
        else { throw .server("unexpected reply to reading the members of a room: \(replies)") }
        let publishers = Set(publishing.compactMap(\.string))
        let flat = hash.compactMap(\.string)
        var members: [Member] = []
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            members.append(Member(user: flat[index], node: flat[index + 1], publishing: publishers.contains(flat[index])))
        }
        return members.sorted { $0.user < $1.user }
    }

    // MARK: Events

    /// Queues an event about `user` of `room` for the other nodes and returns at once: events reach them in the
    /// order of these calls. False when the payload is over ``ClusterConfiguration/maxPayloadBytes`` (not sent).
    @discardableResult
    public func post(_ kind: String, room: String, user: String, payload: String) -> Bool {
        guard payload.utf8.count <= configuration.maxPayloadBytes else { return false }
        // The sequence is taken and the command queued under one lock: the order of the calls is the order sent.
        state.withLock { s in
            s.sequence += 1
            let event = ClusterEvent(origin: configuration.nodeID, room: room, sequence: s.sequence, kind: kind,
                                     user: user, payload: payload)
            // An event that is refused (the queue is full, Redis is known lost) or fails is lost: reported as an
            // outage, so that the server resynchronizes once Redis takes events again.
            // (A refusal completes at once, under this lock: the outage begins elsewhere.)
            fanout.send(["PUBLISH", keys.channel(room), event.wireText]) { [weak self] result in
                guard case .failure(let error) = result, let node = self else { return }
                DispatchQueue.global().async { node.beginOutage("events lost: \(error)") }
            }
        }
        metrics?.sent(kind)
        return true
    }

    /// Events and the connection's state, from the subscriber to ``events``.
    private func listen(to subscriber: RedisSubscriber) async {
        for await event in subscriber.events {
            switch event {
            case .subscribed:
                // Redis is back (maybe empty, after a restart): the outage's recovery registers what this node
                // holds again and then says so.
                state.withLock { s in
                    s.subscribed = true
                    s.subscriptions += 1
                    s.subscribedOnce = true
                    s.subscribedWaiter?.resume(returning: true)
                    s.subscribedWaiter = nil
                }
            case .lost(let reason):
                state.withLock { $0.subscribed = false }
                beginOutage(reason)
            case .message(let channel, let payload):
                guard let room = keys.room(ofChannel: channel), payload.utf8.count <= configuration.maxPayloadBytes + 4096,
                      let message = ClusterEvent(wireText: payload), message.room == room
                else {
                    state.withLock { $0.dropped += 1 }
                    metrics?.received("invalid")
                    continue
                }
                if message.origin == configuration.nodeID, message.kind != ClusterEvent.departed { continue }
                // A node heard from is alive (a departure is a survivor's word for a dead node): after an outage this
                // node waits for it to register again, even when no sweep ran since it joined.
                if message.kind != ClusterEvent.departed { state.withLock { _ = $0.knownAlive.insert(message.origin) } }
                metrics?.received(message.kind)
                continuation.yield(.event(message))
            }
        }
    }

    /// Whether the node is in an outage (from ``/RoomClusterCore/ClusterIncoming/unavailable(_:)`` until
    /// ``/RoomClusterCore/ClusterIncoming/restored``): claims and reads of the members fail meanwhile.
    public var isRecovering: Bool { state.withLock { $0.outage != nil } }

    /// Events that were not the cluster's (another channel, not an event, too big, or a room mismatch): dropped.
    public var droppedMessages: Int { state.withLock { $0.dropped } }
}
