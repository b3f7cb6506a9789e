import JSONRPC
import RoomProtocol

/// How a ``RoomClient`` gets back into its room after the connection was lost, as a pure state machine: every
/// state and event in this one file, no I/O, no clock, no lock. The client holds one under its lock next to the
/// peers model, tells it what its calls did, what the room did and how the connection's state changed, and
/// carries out what it returns (forget the room, rejoin, wait and retry, renegotiate these endpoints).
///
/// The JSON-RPC client resumes a session by itself. What is left to the room layer is the case where the server
/// no longer knew the session (a fresh session after 40007): the participant is gone there, so the client joins
/// again with the same user, room and data-channel setting, then restores its publication and the subscriptions
/// to participants that still publish. See docs/architecture.md, "Client connection lifecycle".
struct RoomRecoveryMachine: Sendable {
    /// Where the recovery is.
    enum Phase: Equatable, Sendable {
        /// Nothing to recover: connected (or resumed) in the room, or out of it.
        case steady
        /// The connection was lost while in the room; the JSON-RPC client is reconnecting.
        case lost
        /// A fresh session: rejoin `round` runs. `waited` is the time spent so far waiting for the name to be
        /// freed, `delay` the wait before the next try when the name is still taken.
        case rejoining(round: Int, waited: Duration, delay: Duration)
    }

    /// How long a rejoin keeps trying while the server answers 104 (a cluster frees the name of a dead node's
    /// participant within its node timeout, 5 s by default).
    static let nameReleaseWait = Duration.seconds(15)
    /// The first wait after a 104; each further one doubles, up to ``maximumDelay``.
    static let firstDelay = Duration.milliseconds(250)
    static let maximumDelay = Duration.seconds(2)

    private(set) var phase = Phase.steady
    /// The params of the last successful `joinRoom`; `nil` when not in a room.
    private(set) var join: JoinRoomParams?
    /// The `loopback` of the current publication; `nil` when not publishing.
    private(set) var publishLoopback: Bool?
    /// The users whose stream is subscribed to.
    private(set) var subscriptions: Set<String> = []
    /// Counts the rejoins started, so that a rejoin superseded by a later one stops.
    private(set) var rounds = 0
    /// The participants known when a resync began; the rejoin that completes it reports the differences.
    private(set) var resyncBaseline: [Peer]?

    // MARK: - What the calls did

    mutating func joined(_ params: JoinRoomParams) { join = params }
    mutating func published(loopback: Bool) { publishLoopback = loopback }
    mutating func unpublished() { publishLoopback = nil }
    mutating func subscribed(to user: String) { subscriptions.insert(user) }
    mutating func unsubscribed(from user: String) { subscriptions.remove(user) }

    /// Out of the room (left, evicted, closed, disconnected for good): nothing will be rejoined.
    mutating func forget() {
        phase = .steady
        join = nil
        publishLoopback = nil
        subscriptions = []
        resyncBaseline = nil
    }

    /// A resync begins with `peers` known; a resync that began earlier and has not completed keeps its own.
    mutating func resyncBegan(knowing peers: [Peer]) {
        if resyncBaseline == nil { resyncBaseline = peers }
    }

    /// The baseline of the resync that a successful join completes, if one is under way (taken once).
    mutating func takeResyncBaseline() -> [Peer]? {
        defer { resyncBaseline = nil }
        return resyncBaseline
    }

    // MARK: - What the room did

    /// A room event was applied to the peers model: a subscription to someone who stopped publishing or left is
    /// not restored, and an eviction or a closed room ends the recovery.
    mutating func observe(_ event: RoomEvent) {
        switch event {
        case .participantUnpublished(let peer), .participantLeft(let peer): subscriptions.remove(peer.identifier)
        case .participantEvicted, .roomClosed: forget()
        default: break
        }
    }

    /// The server dropped `endpoint` after a media failure (`mediaError` with its `endpointName`): returns the
    /// endpoint to restore, if any. The publisher is restored with the `loopback` it had; a subscription only while
    /// its publisher still publishes (else it is forgotten, and the publisher's next `participantPublished` says
    /// when to subscribe again).
    mutating func mediaFailed(_ endpoint: RoomEndpoint, stillPublishing: (String) -> Bool) -> RoomEndpoint? {
        switch endpoint {
        case .publisher:
            return publishLoopback == nil ? nil : .publisher
        case .subscriber(let user):
            guard subscriptions.contains(user) else { return nil }
            guard stillPublishing(user) else {
                subscriptions.remove(user)
                return nil
            }
            return endpoint
        }
    }

    // MARK: - The connection

    /// What a connection-state change does.
    enum ConnectionAction: Equatable, Sendable {
        case none
        /// Disconnected for good: empty the peers model.
        case forgetRoom
        /// A fresh session after a loss in the room: empty the peers model and, with `params`, start rejoin
        /// `round`.
        case rejoin(JoinRoomParams?, round: Int)
        /// A resumed session whose server does not replay what it missed: leave and rejoin (round `round`) to read
        /// the room again, reporting the differences (docs/wire-protocol.md#stock-kurento).
        case resync(JoinRoomParams, round: Int)
    }

    /// The JSON-RPC client's state changed to `state`; `isJoined` is the peers model's; `replayed` whether a
    /// resumed session got what it missed (the server replays, or the client trusts it to).
    mutating func connectionChanged(to state: ConnectionState, isJoined: Bool, replayed: Bool = true) -> ConnectionAction {
        switch state {
        case .disconnected:
            forget()
            return .forgetRoom
        case .reconnecting:
            if isJoined || join != nil { phase = .lost }
            return .none
        case .connected where phase == .lost:
            // The server answered 40007: the participant is gone there.
            rounds += 1
            guard let join else {
                phase = .steady
                return .rejoin(nil, round: rounds)
            }
            phase = .rejoining(round: rounds, waited: .zero, delay: Self.firstDelay)
            return .rejoin(join, round: rounds)
        case .resumed:
            guard phase == .lost else { return .none }
            guard !replayed, let join else {
                phase = .steady
                return .none
            }
            rounds += 1
            phase = .rejoining(round: rounds, waited: .zero, delay: Self.firstDelay)
            return .resync(join, round: rounds)
        case .connecting, .connected, .rejoined:
            return .none
        }
    }

    // MARK: - The rejoin

    /// What a refused rejoin does.
    enum RefusalAction: Equatable, Sendable {
        /// The name is still taken: try again after this wait.
        case retry(after: Duration)
        /// Report the failure; the client stays out of the room.
        case giveUp
        /// A later loss or rejoin superseded this one: stop quietly.
        case stop
    }

    /// Rejoin `round`'s `joinRoom` was refused; `nameTaken` when with 104.
    mutating func rejoinRefused(round: Int, nameTaken: Bool) -> RefusalAction {
        guard case .rejoining(round, let waited, let delay) = phase else { return .stop }
        guard nameTaken, waited < Self.nameReleaseWait else {
            phase = .steady
            return .giveUp
        }
        phase = .rejoining(round: round, waited: waited + delay, delay: min(delay * 2, Self.maximumDelay))
        return .retry(after: delay)
    }

    /// Whether rejoin `round` is still the one running (after its wait, before its next try).
    func isRejoining(round: Int) -> Bool {
        if case .rejoining(round, _, _) = phase { true } else { false }
    }

    /// A rejoin succeeded. Returns the endpoints to renegotiate: the publication, and the subscriptions to
    /// participants that still publish (`stillPublishing`); subscriptions to anyone else are forgotten.
    mutating func rejoined(stillPublishing: (String) -> Bool) -> [RoomEndpoint] {
        phase = .steady
        subscriptions = subscriptions.filter(stillPublishing)
        return (publishLoopback == nil ? [] : [.publisher]) + subscriptions.sorted().map { .subscriber(to: $0) }
    }
}
