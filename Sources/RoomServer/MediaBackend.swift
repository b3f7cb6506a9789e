/// Where a ``RoomServer`` gets its media: one endpoint per published stream and one per subscription, in the
/// shape of Kurento's WebRtcEndpoints (docs/wire-protocol.md#room). ``SimulatedMediaBackend`` is the default;
/// ``KurentoMediaBackend`` drives Kurento Media Server.
///
/// The server calls the backend outside its locks, after it has reserved the endpoint in the room's state
/// (docs/architecture.md#identity), so a backend may take its time. A backend that throws a ``/RoomProtocol/RoomError``
/// has that error sent to the client as is; any other error becomes 302 (MEDIA_SDP) with the error's text.
///
/// Client ICE candidates that arrive before an endpoint exists are queued by the server and handed over through
/// ``addCandidate(_:to:)`` as soon as the endpoint's `create…` call has returned. What happens after a call returned
/// (server candidates a media server trickles, failures, media flow) the backend reports to the sinks the servers
/// attached (``attach(_:)``, ``MediaEvent``).
public protocol MediaBackend: Sendable {
    /// Creates the publisher endpoint of `endpoint.owner` and answers its offer.
    /// - Parameters:
    ///   - endpoint: The endpoint to create (``MediaEndpointID/endpoint`` is `.publisher`).
    ///   - offer: The client's SDP offer.
    ///   - loopback: Whether the stream should be sent back to the publisher (`doLoopback`).
    /// - Returns: The SDP answer and the endpoint's server ICE candidates known by now (more may follow as
    ///   ``MediaEvent/candidate(_:of:)``).
    func createPublisher(_ endpoint: MediaEndpointID, offer: String, loopback: Bool) async throws -> MediaAnswer

    /// Creates the endpoint through which `endpoint.owner` receives the stream of the publisher named in
    /// `endpoint.endpoint` (`.subscriber(to:)`), and answers its offer.
    func createSubscriber(_ endpoint: MediaEndpointID, offer: String) async throws -> MediaAnswer

    /// Adds one client ICE candidate to an endpoint that a `create…` call has returned.
    func addCandidate(_ candidate: MediaCandidate, to endpoint: MediaEndpointID) async throws

    /// Releases an endpoint (unpublish, unsubscribe, leave, eviction, closed room, a failure). Called at most once per
    /// created endpoint; never throws, because the participant is gone either way.
    func release(_ endpoint: MediaEndpointID) async

    /// Releases what the backend keeps for a whole room or tree (a media pipeline), once nothing of it is left: the
    /// room emptied or closed, the tree was released. Called after the scope's endpoints were released. Default:
    /// nothing.
    func release(scope: MediaScope) async

    /// Connects the backend to a server's `sink`, before any other call from that server. Default: nothing is ever
    /// reported.
    func attach(_ sink: MediaEventSink)

    /// `nil` while the backend can serve media; otherwise why not, in one line (`/readyz` answers 503 with it,
    /// docs/operations.md#readiness). Default: always ready.
    var notReadyReason: String? { get }

    /// Which media server serves `scope`, for operators (docs/operations.md#rooms); `nil` when none does yet or the
    /// backend has no such notion. Default: `nil`.
    func mediaServer(of scope: MediaScope) -> String?

    /// The server is shutting down and has released every endpoint and scope it holds: let go of the rest (a
    /// connection to a media server). Default: nothing.
    func shutdown() async
}

extension MediaBackend {
    public func release(scope: MediaScope) async {}
    public func attach(_ sink: MediaEventSink) {}
    public var notReadyReason: String? { nil }
    public func mediaServer(of scope: MediaScope) -> String? { nil }
    public func shutdown() async {}
}
