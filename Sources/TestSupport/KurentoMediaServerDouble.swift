import Foundation
import SignalingSupport

/// A Kurento Media Server (KMS 7.x) test double: the Kurento protocol (JSON-RPC 2.0 over a WebSocket on
/// `/kurento`) with KMS's own shapes, errors and quirks, for testing a Kurento client against an oracle that refuses
/// what KMS refuses. It is written on raw TCP (``HostilePeer``) and `JSONSerialization`, none of this package's own
/// JSON-RPC or WebSocket stack, so that it is independent of the code under test; its SDP offers and answers come from
/// `PeerManager`, so real WebRTC stacks accept them. Every behaviour cites its source beside the code, by the keys of
/// the research digest (`/tmp/research/kms-server.md`): SM7, JRH, MSET, SDP, WRTC, TPL-INV, …
///
/// **What it serves.** `connect`, `create`, `invoke`, `subscribe`, `unsubscribe`, `release`, `describe`, `ping`,
/// `keepAlive` and `closeSession`; the classes `MediaPipeline`, `WebRtcEndpoint`, `PassThrough` and the ServerManager
/// (`manager_ServerManager`). Sessions are tied to sockets and injected into requests that lack one (SM7, WST7);
/// replies are replayed from a request cache for ``Configuration/requestCacheTTL``; sessions that no socket keeps
/// alive are collected every ``Configuration/garbageCollectorPeriod`` with their objects (MSET). Requests on one
/// socket run one at a time, in order; requests of different sockets run one at a time too (each method is atomic).
/// Events go out on one serial queue, in order, to the socket tied to the subscribing session when they are sent.
///
/// **Known gap.** `ref`, `unref` and `transaction` answer 40006 NOT_IMPLEMENTED "not implemented by the double".
///
/// **Simulated media (the double's choice; KMS derives all of this from real ICE, DTLS and RTP).** No packet is
/// ever sent. Deterministically, and with no timer:
/// - `gatherCandidates` on an endpoint that has a local description (after `processOffer` or `generateOffer`)
///   emits one `IceCandidateFound` per ICE transport (a UDP host candidate on ``Configuration/candidateAddress``,
///   a port of its own, the local `ufrag`, the `sdpMid` / `sdpMLineIndex` of the transport's first m-line: the first
///   m-line of each BUNDLE group, and every accepted m-line outside one), then `IceGatheringDone`; once per endpoint.
///   Called earlier, it succeeds and never gathers anything (WRTC: the connections do not exist yet).
/// - An endpoint whose negotiation is complete (offer processed, or our offer answered) and that accepted at least
///   one remote candidate "connects": `IceComponentStateChanged` CONNECTED per transport, `ConnectionStateChanged`
///   then `MediaStateChanged` (DISCONNECTED → CONNECTED).
/// - Media then flows *in* for each kind (AUDIO, VIDEO) the client sends and the endpoint receives
///   (`MediaFlowInStateChanged` FLOWING, padName `default`). An element's media flows *out* for a kind when its
///   source for that kind has media (a connected endpoint with media flowing in, or a PassThrough whose own source
///   has it) and, for an endpoint, when it is connected and sends that kind to its client; a PassThrough's flows out
///   when it has media and a sink. When the source goes (released, disconnected), the state turns NOT_FLOWING.
/// - `processOffer` / `processAnswer` emit `MediaSessionStarted` at once (SDP).
public final class KurentoMediaServerDouble: Sendable {
    /// How a double is set up.
    public struct Configuration: Sendable {
        /// The port to listen on (127.0.0.1); 0 picks an ephemeral one.
        public var port: Int
        /// The garbage collector's period: KMS `mediaServer.resources.garbageCollectorPeriod`, 240 s by default
        /// (MSET `COLLECTOR_INTERVAL_DEFAULT`). Tests use a fraction of a second, or ``collectGarbage()``.
        public var garbageCollectorPeriod: Duration
        /// How long a reply stays in the request cache: 20 s in KMS (SM7 `REQUEST_TIMEOUT`).
        public var requestCacheTTL: Duration
        /// The address of the simulated host candidates.
        public var candidateAddress: String
        /// The first port handed to simulated candidates (each candidate gets the next one).
        public var firstCandidatePort: Int

        /// A configuration; the defaults are KMS's own (GC period 240 s, request cache 20 s).
        public init(
            port: Int = 0, garbageCollectorPeriod: Duration = .seconds(240), requestCacheTTL: Duration = .seconds(20),
            candidateAddress: String = "127.0.0.1", firstCandidatePort: Int = 50000
        ) {
            self.port = port
            self.garbageCollectorPeriod = garbageCollectorPeriod
            self.requestCacheTTL = requestCacheTTL
            self.candidateAddress = candidateAddress
            self.firstCandidatePort = firstCandidatePort
        }
    }

    /// The configuration it was started with.
    public let configuration: Configuration
    /// The port it listens on (kept across ``restart()`` and ``pause()`` / ``resume()``).
    public let port: Int
    /// `ws://127.0.0.1:<port>/kurento`.
    public var url: String { "ws://127.0.0.1:\(port)/kurento" }

    let state: LockedValue<State>
    /// Held while one request's method runs, a collection runs or a restart resets the world: methods are atomic.
    /// Only the double's own threads take it (never a caller's task), so a method may block on PeerManager.
    let operationLock = LockedValue(())
    /// EVH `WorkerPool workers(1)`: events are sent one at a time, in order.
    let eventQueue = DispatchQueue(label: "kms-double.events")
    let collector = CollectorClock()

    /// Starts listening on 127.0.0.1 and starts the garbage collector.
    /// - Throws: when the port cannot be bound.
    public init(configuration: Configuration = .init()) throws {
        self.configuration = configuration
        let listener = try Listener(port: configuration.port)
        port = listener.port
        state = LockedValue(State(world: World(epoch: 0, candidatePort: configuration.firstCandidatePort),
                                  listener: listener))
        accept(on: listener)
        startCollector()
    }

    /// Stops listening, cuts every connection and stops the collector. Idempotent.
    public func stop() {
        let (listener, sockets) = state.withLock { s -> (Listener?, [Socket]) in
            s.stopped = true
            defer {
                s.listener = nil
                s.sockets = [:]
                s.sessionOfSocket = [:]
                s.socketOfSession = [:]
            }
            return (s.listener, Array(s.sockets.values))
        }
        listener?.shutDown(wait: false)
        for socket in sockets { socket.cut() }
        collector.stop()
    }

    deinit { stop() }
}
