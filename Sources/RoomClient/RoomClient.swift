public import JSONRPC
import JSONRPCWebSocket
import Logging
import RoomProtocol
import SignalingSupport

/// The Kurento Room client: the NBMRoomClient counterpart (docs/wire-protocol.md#counterparts), over a
/// ``/JSONRPC/JSONRPCClient``.
///
/// ```swift
/// let client = RoomClient(room: Room(username: "alice", roomName: "demo", url: "ws://127.0.0.1:8443/room"))
/// let peers = try await client.join()
/// let answer = try await client.publishVideo(sdpOffer: offer, loopback: false)
/// for try await event in client.events { print(event) }
/// ```
///
/// - The peers model (``peers``, ``peer(withIdentifier:)``) follows the join result and the notifications in wire
///   order. Each notification updates it *before* its ``RoomEvent`` is published, and a call's result is
///   applied (and returned) only after every notification that arrived before its response
///   (docs/architecture.md#event-streams).
/// - ``events`` is multicast: each access is a new subscriber with a bounded buffer.
/// - Recovery (docs/architecture.md#room-recovery): the JSON-RPC client reconnects and resumes the session; when the
///   server no longer knows it (40007), this client rejoins with the same user, room and data-channel setting,
///   refreshes the peers model from the join result, reports ``/JSONRPC/ConnectionState/rejoined``, then renegotiates
///   its media through ``Configuration/offerProvider`` or asks for it with ``RoomEvent/renegotiationNeeded(_:)``.
/// - Calls throw ``/RoomProtocol/RoomError`` when the server answers with a Room error code, and
///   ``/JSONRPC/RPCError`` otherwise (timeout, connection closed, another JSON-RPC error, a malformed result).
/// - The NBMRoomClient bugs are not copied: publishing returns the real SDP answer, `unsubscribe` accepts the
///   server's `{}`, and ``peer(withIdentifier:)`` returns `nil` for unknown ids.
/// - The delegate (``delegate``) and completion-closure faces are thin adapters over the async API; they are
///   called on no particular thread.
public final class RoomClient: Sendable {
    struct State {
        var model = PeersModel()
        /// What a rejoin restores, and where the recovery is.
        var recovery = RoomRecoveryMachine()
        /// The last connection state published in the events.
        var reportedState: ConnectionState?
        /// What is negotiated through a PeerManager (``publish(using:loopback:)``, ``subscribe(to:using:)``).
        var media = MediaBinding()
    }

    /// The room this client joins.
    public let room: Room
    /// The settings this client was made with.
    public let configuration: Configuration
    let rpc: JSONRPCClient
    let state = LockedValue(State())
    let delegateFeeder = DelegateFeeder<any RoomClientDelegate>()
    let eventHub: Broadcast<RoomEvent>
    /// The PeerManager work the receive loop hands on, in wire order (``followMedia(_:_:)``).
    let mediaJobs = SerialJobs()
    var logger: Logger { configuration.logger }

    /// Creates a client for `room`, connecting to ``Room/url`` over a WebSocket (TLS, headers and the bearer
    /// token from `configuration`), or, when it does not take a connection, to the next of
    /// ``Configuration/failoverURLs``. Nothing is sent until ``connect()`` or the first call.
    public convenience init(room: Room, configuration: Configuration = .init()) {
        let transports = ([room.url] + configuration.failoverURLs).map { url in
            WebSocketMessageTransport.noteScheme(of: url, to: configuration.logger)
            return WebSocketMessageTransport(url: url, configuration: configuration.webSocketWithAuthorization)
        }
        let transport: any MessageTransport = transports.count == 1 ? transports[0] : FailoverTransport(transports)
        self.init(room: room, transport: transport, configuration: configuration)
    }

    /// Creates a client for `room` that opens its connections through `transport` (``Room/url`` is then only
    /// informative). Tests pass a transport handing out ``/JSONRPC/LocalMessageConnection``s.
    public init(room: Room, transport: any MessageTransport, configuration: Configuration = .init()) {
        self.room = room
        self.configuration = configuration
        rpc = JSONRPCClient(transport: transport, configuration: configuration.rpc)
        eventHub = Broadcast(bufferLimit: configuration.eventBufferLimit)
        rpc.observeNotifications { [weak self] notification in self?.apply(notification) }
        rpc.observeConnectionStates { [weak self] connectionState in self?.apply(connectionState) }
    }

    deinit {
        eventHub.finish()
        delegateFeeder.stop()
        mediaJobs.finish()
        state.withLock { $0.media.forwarder }?.cancel()
    }

    /// A new subscriber to the room's events, in wire order, from this moment on. Each access is a new subscriber
    /// with a bounded buffer (``/JSONRPCWebSocket/SignalingClientConfiguration/eventBufferLimit``): it gets every event,
    /// or, when it falls further behind, the ones it buffered and then ``/JSONRPC/BroadcastOverflow``, once,
    /// ending it. To go on, subscribe again and read ``peers`` and ``connectionState`` (already current). The
    /// sequence ends when the client is released.
    public var events: Broadcast<RoomEvent>.Subscription { eventHub.subscribe() }

    /// The other participants, in the order the client learnt of them; empty when not in the room.
    public var peers: [Peer] { state.withLock { $0.model.peers } }

    /// The participant called `identifier`, or `nil` when there is none (never the local user).
    public func peer(withIdentifier identifier: String) -> Peer? {
        state.withLock { $0.model.peer(withIdentifier: identifier) }
    }

    /// The local user, with the streams it publishes.
    public var localPeer: Peer { Peer(identifier: room.username, streams: state.withLock { $0.model.localStreams }) }

    /// Whether the local user is in the room (joined, and not left, evicted or disconnected since).
    public var isJoined: Bool { state.withLock { $0.model.isJoined } }

    /// The connection's current state, as last reported in ``events`` (``/JSONRPC/ConnectionState/rejoined`` after
    /// a rejoin, until the connection's state changes again).
    public var connectionState: ConnectionState { state.withLock { $0.reportedState } ?? rpc.connectionState }

    /// The `sessionId` the server last reported (docs/wire-protocol.md#kurento-conventions), if any. A bearer
    /// credential: do not log it.
    public var sessionId: String? { rpc.sessionId }

    /// Applies a state change of the connection, in order with the notifications: once disconnected, the client is
    /// no longer in the room; while reconnecting it still is (the server keeps it for its window); a reconnect
    /// into a fresh session starts the rejoin. (A state observer of `rpc`: it runs in the JSON-RPC client's callback
    /// order, outside its lock; the rejoin's calls go to a task, so that later callbacks are not held up.)
    private func apply(_ connectionState: ConnectionState) {
        let replayed = switch configuration.resync {
        case .never: true
        case .always: false
        case .whenServerDoesNotReplay: rpc.serverCapabilities?.contains(.replay) ?? true
        }
        let rejoin = state.withLock { s -> (params: JoinRoomParams, round: Int, resync: Bool)? in
            var rejoin: (JoinRoomParams, Int, Bool)?
            switch s.recovery.connectionChanged(to: connectionState, isJoined: s.model.isJoined, replayed: replayed) {
            case .none: break
            case .forgetRoom:
                s.model.reset()
                if let media = s.media.peerManager { closeMedia(s.media.reset(), of: media) }
            case .rejoin(let params, let round):
                s.model.reset()
                rejoin = params.map { ($0, round, false) }
            case .resync(let params, let round):
                s.recovery.resyncBegan(knowing: s.model.peers)
                rejoin = (params, round, true)
            }
            s.reportedState = connectionState
            eventHub.publish(.connectionStateChanged(connectionState))
            return rejoin
        }
        guard let rejoin else { return }
        Task {
            if rejoin.resync {
                await self.resync(rejoin.params, round: rejoin.round)
            } else {
                await self.rejoin(rejoin.params, round: rejoin.round)
            }
        }
    }

    /// Applies one notification in the receive loop and publishes its event (under the lock, so that state
    /// changes and events keep one order).
    private func apply(_ notification: RPCNotification) {
        guard let method = RoomNotificationMethod(rawValue: notification.method) else {
            logger.debug("notification outside the Room protocol", metadata: ["method": "\(notification.method)"])
            eventHub.publish(.customNotification(method: notification.method, params: notification.params))
            return
        }
        let decoded: RoomNotification
        do {
            decoded = try RoomNotification(method: method, params: notification.params)
        } catch {
            logger.warning("malformed notification: \(error)")
            eventHub.publish(.invalidNotification(error))
            return
        }
        let restore = state.withLock { s -> RoomEndpoint? in
            let event = s.model.apply(decoded, ownName: room.username)
            s.recovery.observe(event)
            eventHub.publish(event)
            followMedia(event, &s)
            guard case .mediaError(_, let failed?) = event else { return nil }
            let model = s.model
            return s.recovery.mediaFailed(failed) { model.peer(withIdentifier: $0)?.isPublishing == true }
        }
        // docs/wire-protocol.md#media-errors: the server dropped the endpoint; make it again (in a task, so that later
        // notifications are not held up).
        if let restore { Task { await self.renegotiate([restore]) } }
    }
}
