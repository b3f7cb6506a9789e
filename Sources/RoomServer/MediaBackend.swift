/// Where a ``RoomServer`` gets its media: one endpoint per published stream and one per subscription, in the
/// shape of Kurento's WebRtcEndpoints (docs/wire-protocol.md#room).
///
/// The server calls the backend outside its locks, after it has reserved the endpoint in the room's state
/// (docs/architecture.md#identity), so a backend may take its time. A backend that throws a ``/RoomProtocol/RoomError``
/// has that error sent to the client as is; any other error becomes 302 (MEDIA_SDP) with the error's text.
///
/// Client ICE candidates that arrive before an endpoint exists are queued by the server and handed over through
/// ``addCandidate(_:to:)`` as soon as the endpoint's `create…` call has returned.
public protocol MediaBackend: Sendable {
    /// Creates the publisher endpoint of `endpoint.owner` and answers its offer.
    /// - Parameters:
    ///   - endpoint: The endpoint to create (``MediaEndpointID/endpoint`` is `.publisher`).
    ///   - offer: The client's SDP offer.
    ///   - loopback: Whether the stream should be sent back to the publisher (`doLoopback`).
    /// - Returns: The SDP answer and the endpoint's server ICE candidates.
    func createPublisher(_ endpoint: MediaEndpointID, offer: String, loopback: Bool) async throws -> MediaAnswer

    /// Creates the endpoint through which `endpoint.owner` receives the stream of the publisher named in
    /// `endpoint.endpoint` (`.subscriber(to:)`), and answers its offer.
    func createSubscriber(_ endpoint: MediaEndpointID, offer: String) async throws -> MediaAnswer

    /// Adds one client ICE candidate to an endpoint that a `create…` call has returned.
    func addCandidate(_ candidate: MediaCandidate, to endpoint: MediaEndpointID) async throws

    /// Releases an endpoint (unpublish, unsubscribe, leave, eviction, closed room). Called at most once per
    /// created endpoint; never throws, because the participant is gone either way.
    func release(_ endpoint: MediaEndpointID) async
}
