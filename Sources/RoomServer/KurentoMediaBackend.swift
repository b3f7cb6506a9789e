public import KurentoClient
import Logging
import SignalingSupport

/// The ``MediaBackend`` that drives Kurento Media Server (docs/kurento.md#backend): real media for the Room and Tree
/// servers, through ``/KurentoClient/KurentoClient``s, one connection per KMS for the whole process.
///
/// - **Room**: one `MediaPipeline` per room, on the KMS with the fewest live pipelines, created when first needed
///   and released when the room empties or closes; one `WebRtcEndpoint` per publisher (connected back to itself with
///   `doLoopback`) and one per subscription, connected from the publisher's endpoint. **Tree**: one pipeline per
///   tree, the source's endpoint, sinks connected from it.
/// - **A publish costs two round trips in sequence**: `create WebRtcEndpoint` (the pipeline's `create` once per
///   room), then every other request back to back (subscriptions to `IceCandidateFound`, `Error` and the media flow,
///   `processOffer`, the loopback `connect`, `gatherCandidates`), which KMS processes in order
///   (docs/kurento.md#round-trips). A subscription likewise, with the `connect` from the publisher's endpoint.
/// - **ICE both ways**: KMS's `IceCandidateFound` becomes `iceCandidate` for the endpoint's owner
///   (``MediaEvent/candidate(_:of:)``); a client candidate becomes `addIceCandidate`.
/// - **Failures** (``MediaEvent``): an endpoint's `Error` event fails that endpoint, a pipeline's fails its room or
///   tree, and a KMS that lost its session (a restart) or stayed unreachable fails every room and tree on it; the
///   server then tells the participants with `mediaError`. A KMS call that fails or times out fails that one
///   request with a Room error (303 MEDIA_ENDPOINT, 302 MEDIA_SDP, 304 MEDIA_WEBRTC_ENDPOINT), and whatever it
///   created is released.
/// - **Readiness**: ``notReadyReason`` while no KMS is reachable; each KMS is reconnected until it is back.
public final class KurentoMediaBackend: MediaBackend {
    /// How the backend uses its Kurento Media Servers.
    public struct Configuration: Sendable {
        /// The KMS URLs, e.g. `ws://127.0.0.1:8888/kurento`; each new room or tree goes to the one with the fewest
        /// live pipelines this process created.
        public var urls: [String]
        /// How long one media operation (a publish, a subscription, a candidate) may take in all, its KMS round
        /// trips together; then it fails with 303 and whatever it created is released. Default 10 s.
        public var timeout: Duration
        /// The settings of each ``/KurentoClient/KurentoClient`` (reconnection, heartbeat, logger, clock, metrics).
        /// Its `requestTimeout` is replaced by ``timeout``.
        public var client: KurentoClient.Configuration
        /// How long to wait before dialling again a KMS that could not be reached. Default 2 s.
        public var reconnectInterval: Duration

        /// Creates a configuration.
        public init(urls: [String], timeout: Duration = .seconds(10), client: KurentoClient.Configuration = .init(),
                    reconnectInterval: Duration = .seconds(2)) {
            self.urls = urls
            self.timeout = timeout
            self.client = client
            self.reconnectInterval = reconnectInterval
        }
    }

    /// The settings this backend was made with.
    public let configuration: Configuration
    /// One client per KMS, in ``Configuration/urls`` order.
    public let clients: [KurentoClient]
    let sinks = MediaEventSinks()
    let state = LockedValue(State())
    var logger: Logger { configuration.client.logger }
    var clock: any SignalingClock { configuration.client.clock }

    /// Creates the backend and starts connecting to every KMS (nothing waits for it: until one is reachable,
    /// ``notReadyReason`` says so and media requests fail with 303).
    public convenience init(configuration: Configuration) {
        var client = configuration.client
        client.requestTimeout = configuration.timeout
        self.init(clients: configuration.urls.map { KurentoClient(url: $0, configuration: client) },
                  configuration: configuration)
    }

    /// Creates the backend over clients made elsewhere (a custom transport, TLS settings); they are named by their
    /// ``/KurentoClient/KurentoClient/name``.
    public init(clients: [KurentoClient], configuration: Configuration) {
        precondition(!clients.isEmpty, "KurentoMediaBackend needs at least one Kurento Media Server")
        self.configuration = configuration
        self.clients = clients
        for (index, client) in clients.enumerated() {
            client.observeConnection { [weak self] event in self?.connectionChanged(event, kms: index) }
        }
        state.withLock { s in
            s.supervisors = clients.indices.map { index in Task { [weak self] in await self?.supervise(index) } }
        }
    }

    public func attach(_ sink: MediaEventSink) { sinks.attach(sink) }

    public var notReadyReason: String? {
        guard !clients.contains(where: \.isConnected) else { return nil }
        let names = clients.map(\.name).joined(separator: ", ")
        return "no Kurento Media Server reachable (\(names))"
    }

    public func mediaServer(of scope: MediaScope) -> String? {
        state.withLock { s in s.scopes[scope]?.kms.map { clients[$0].name } }
    }

    /// The media objects this backend holds, per KMS name: pipelines and endpoints (for operators and tests).
    public var liveObjects: [String: Int] {
        Dictionary(uniqueKeysWithValues: clients.map { ($0.name, $0.liveObjects.count) })
    }

    public func shutdown() async {
        let supervisors = state.withLock { s -> [Task<Void, Never>] in
            s.shuttingDown = true
            defer { s.supervisors = [] }
            return s.supervisors
        }
        for supervisor in supervisors { supervisor.cancel() }
        for client in clients { await client.close() }
    }
}
