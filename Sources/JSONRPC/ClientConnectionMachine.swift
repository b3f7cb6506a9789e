/// The connection lifecycle of a ``JSONRPCClient``, as a pure state machine: every state and every event in this
/// one file, no I/O, no clock, no lock. The client holds one under its lock, feeds it what happened (a connect
/// was asked for, a connection opened or ended, a reconnection attempt began, a resume was answered, the user
/// closed) and carries out what each event returns (start an attempt, reconnect, fail the pending requests, close
/// these connections). The observable ``ConnectionState`` is derived from the state, so the two cannot disagree.
///
/// Two counters tell stale work from current work:
/// - `generation` grows with every connection the client starts reading and with every close, so the end of a
///   connection that is no longer the client's (a stale receive loop, a late heartbeat) is ignored;
/// - `epoch` grows with every reconnection and every close, so a reconnect loop that was superseded stops.
///
/// `Connection` is the client's connection type; the unit tests use plain values.
/// See docs/architecture.md, "Client connection lifecycle".
package struct ClientConnectionMachine<Connection: Sendable>: Sendable {
    /// Where the client is.
    package enum Phase: Sendable {
        /// No connection: never connected (`nil`), or the last one ended as described.
        case idle(ConnectionEnd?)
        /// The first connection is being opened; every caller of `connect()` shares the attempt.
        case connecting
        /// Calls go out on `connection`; `resumed` after a reconnection that resumed the session.
        case open(Connection, resumed: Bool)
        /// The connection was lost and the reconnect loop of `epoch` runs.
        case reconnecting(Reconnection)
    }

    /// The state of one reconnection.
    package struct Reconnection: Sendable {
        /// The reconnect loop that owns this reconnection.
        package var epoch: Int
        /// The attempt in progress (from 1).
        package var attempt: Int
        /// The requests that were pending at the loss: re-sent when the session resumes.
        package var lostIDs: Set<RequestID>
        /// A new connection whose `connect{sessionId}` is not answered yet.
        package var handshake: Connection?
    }

    package private(set) var phase: Phase = .idle(nil)
    package private(set) var generation = 0
    package private(set) var epoch = 0
    /// The last `sessionId` the server put into a response; resumed on reconnect, forgotten when refused.
    package private(set) var sessionId: String?
    /// Whether a lost connection is reconnected at all (the reconnect policy is not `.off`).
    package let reconnects: Bool
    /// Whether sending while idle opens a connection first.
    package let autoConnect: Bool

    package init(reconnects: Bool, autoConnect: Bool) {
        self.reconnects = reconnects
        self.autoConnect = autoConnect
    }

    // MARK: - What the state shows

    /// The observable state.
    package var connectionState: ConnectionState {
        switch phase {
        case .idle(let end): .disconnected(end)
        case .connecting: .connecting
        case .open(_, let resumed): resumed ? .resumed : .connected
        case .reconnecting(let reconnection): .reconnecting(attempt: reconnection.attempt)
        }
    }

    /// The connection calls go out on, if open.
    package var connection: Connection? {
        if case .open(let connection, _) = phase { connection } else { nil }
    }

    /// Every connection the client holds: the open one, or a reconnection's handshake.
    package var connections: [Connection] {
        switch phase {
        case .open(let connection, _): [connection]
        case .reconnecting(let reconnection): reconnection.handshake.map { [$0] } ?? []
        case .idle, .connecting: []
        }
    }

    /// The open connection, when it is still connection `generation` (the heartbeat's check).
    package func connection(ofGeneration generation: Int) -> Connection? {
        generation == self.generation ? connection : nil
    }

    /// Whether the reconnect loop of `epoch` is still the current one.
    package func isCurrent(epoch: Int) -> Bool {
        if case .reconnecting(let reconnection) = phase { reconnection.epoch == epoch } else { false }
    }

    // MARK: - Events from the caller

    /// What `connect()` does.
    package enum ConnectAction: Equatable, Sendable {
        /// Already open.
        case none
        /// Wait for the reconnection in progress.
        case waitForReconnection
        /// Join the attempt in progress.
        case joinAttempt
        /// Start the attempt (the state is now `connecting`).
        case startAttempt
        /// The server refused the last connection (4401, 4403): fail with its end, without dialing again.
        case refused(ConnectionEnd)
    }

    /// The caller asked to connect.
    package mutating func connectRequested() -> ConnectAction {
        switch phase {
        case .open: return .none
        case .reconnecting: return .waitForReconnection
        case .connecting: return .joinAttempt
        case .idle(let end?) where end.isAuthorizationRefusal: return .refused(end)
        case .idle:
            phase = .connecting
            return .startAttempt
        }
    }

    /// What a send does.
    package enum SendAction: Sendable {
        case send(Connection)
        case waitForReconnection
        case connectFirst
        /// Not connected and not allowed to connect: fail with the last end, if any.
        case fail(ConnectionEnd?)
    }

    /// Where a message to send goes now (a query: the state does not change). After a refusal (4401, 4403) it fails,
    /// even with `autoConnect`: the server would refuse a new connection too.
    package var sendAction: SendAction {
        switch phase {
        case .open(let connection, _): .send(connection)
        case .reconnecting: .waitForReconnection
        case .idle(let end?) where end.isAuthorizationRefusal: .fail(end)
        case .idle(let end): autoConnect ? .connectFirst : .fail(end)
        case .connecting: autoConnect ? .connectFirst : .fail(nil)
        }
    }

    /// The server put `sessionId` into a response.
    package mutating func sessionIdReceived(_ sessionId: String) {
        self.sessionId = sessionId
    }

    // MARK: - The first connection

    /// The first connection opened. Returns its generation, or nil when the client was closed meanwhile (the
    /// connection is then not the client's: close it).
    package mutating func opened(_ connection: Connection) -> Int? {
        guard case .connecting = phase else { return nil }
        generation += 1
        phase = .open(connection, resumed: false)
        return generation
    }

    /// The first connection could not be opened.
    package mutating func openFailed(_ end: ConnectionEnd) {
        guard case .connecting = phase else { return }
        phase = .idle(end)
    }

    // MARK: - Losing a connection

    /// What the end of a connection does.
    package enum EndAction: Equatable, Sendable {
        /// Not the client's current connection: nothing.
        case ignore
        /// The reconnection's handshake connection ended: fail its `connect` so the loop tries again.
        case handshakeLost
        /// Reconnect: start the reconnect loop of this epoch (the state is now `reconnecting(attempt: 1)`).
        case reconnect(epoch: Int)
        /// No reconnecting (policy off, or a close code that forbids it): fail every pending request.
        case stop
    }

    /// Connection `generation` ended with `end` (its receive loop saw the close, or the heartbeat gave up);
    /// `pendingIDs` are the requests waiting for a response at that moment.
    package mutating func connectionEnded(generation: Int, end: ConnectionEnd, pendingIDs: [RequestID]) -> EndAction {
        guard generation == self.generation else { return .ignore }
        switch phase {
        case .reconnecting(var reconnection) where reconnection.handshake != nil:
            reconnection.handshake = nil
            phase = .reconnecting(reconnection)
            return .handshakeLost
        case .open:
            guard reconnects, Self.reconnects(after: end) else {
                phase = .idle(end)
                return .stop
            }
            epoch += 1
            phase = .reconnecting(Reconnection(epoch: epoch, attempt: 1, lostIDs: Set(pendingIDs), handshake: nil))
            return .reconnect(epoch: epoch)
        case .idle, .connecting, .reconnecting:
            return .ignore
        }
    }

    /// Whether a connection that ended with `end` may be reconnected: not after a normal close by the server
    /// (1000), a protocol or policy refusal, an auth refusal (4401, 4403) or a session takeover (4409).
    package static func reconnects(after end: ConnectionEnd) -> Bool {
        switch end.code {
        case 1000, 1002, 1003, 1007, 1008, 1009, 1010, 4401, 4403, 4409: false
        default: true
        }
    }

    // MARK: - Reconnecting

    /// The reconnect loop of `epoch` starts attempt `attempt`. Returns false when the loop was superseded.
    package mutating func attemptStarted(epoch: Int, attempt: Int) -> Bool {
        guard case .reconnecting(var reconnection) = phase, reconnection.epoch == epoch else { return false }
        reconnection.attempt = attempt
        phase = .reconnecting(reconnection)
        return true
    }

    /// The loop of `epoch` opened `connection` and starts reading it. Returns its generation and the session to
    /// resume, or nil when the loop was superseded.
    package mutating func handshakeStarted(epoch: Int, connection: Connection)
        -> (generation: Int, sessionId: String?)?
    {
        guard case .reconnecting(var reconnection) = phase, reconnection.epoch == epoch else { return nil }
        generation += 1
        reconnection.handshake = connection
        phase = .reconnecting(reconnection)
        return (generation, sessionId)
    }

    /// The handshake's `connect{sessionId}` was answered (`resumed`), refused, or there was no session to resume.
    /// A refused session is forgotten. Returns the requests to re-send: those lost at the drop when resumed,
    /// none otherwise (the caller fails them). The lost requests are kept until a handshake completes: when this
    /// handshake's connection is lost before it does (the re-sends may not have gone out), the next one's resume
    /// returns them again; otherwise they would be neither re-sent nor failed, only left to their deadlines.
    package mutating func resumeAnswered(epoch: Int, resumed: Bool) -> Set<RequestID> {
        guard case .reconnecting(let reconnection) = phase, reconnection.epoch == epoch else { return [] }
        if !resumed { sessionId = nil }
        return resumed ? reconnection.lostIDs : []
    }

    /// The handshake of connection `generation` is done: it becomes the open connection. Returns false when the
    /// handshake connection was lost or the loop superseded meanwhile.
    package mutating func handshakeCompleted(epoch: Int, generation: Int, resumed: Bool) -> Bool {
        guard case .reconnecting(let reconnection) = phase, reconnection.epoch == epoch,
              generation == self.generation, let connection = reconnection.handshake
        else { return false }
        phase = .open(connection, resumed: resumed)
        return true
    }

    /// The handshake of connection `generation` got no usable answer: the client stops reading it.
    package mutating func handshakeAbandoned(generation: Int) {
        guard generation == self.generation, case .reconnecting(var reconnection) = phase,
              reconnection.handshake != nil
        else { return }
        reconnection.handshake = nil
        phase = .reconnecting(reconnection)
        self.generation += 1
    }

    /// The loop of `epoch` gave up with `end`. Returns false when it was superseded (nothing to fail).
    package mutating func gaveUp(epoch: Int, end: ConnectionEnd) -> Bool {
        guard isCurrent(epoch: epoch) else { return false }
        phase = .idle(end)
        return true
    }

    // MARK: - Closing

    /// What a user close does.
    package enum CloseAction: Sendable {
        /// Nothing was open or in progress.
        case none
        /// Close `connections`, stop the reconnect loop, fail everything waiting with the close's end.
        case close(connections: [Connection])
    }

    /// The user closed the client with `end`. A connect or reconnection in progress stops.
    package mutating func closeRequested(_ end: ConnectionEnd) -> CloseAction {
        generation += 1
        epoch += 1
        switch phase {
        case .idle:
            return .none
        case .connecting, .open, .reconnecting:
            let connections = connections
            phase = .idle(end)
            return .close(connections: connections)
        }
    }
}
