import PeerManager
import RoomProtocol

/// What a ``RoomClient`` negotiates through a `PeerManager` (``RoomClient/publish(using:loopback:)``,
/// ``RoomClient/subscribe(to:using:)``, ``RoomClient/subscribeToEveryone(using:)``): kept under the client's lock
/// with the peers model, changed in wire order.
struct MediaBinding {
    /// The PeerManager of the last publish or subscribe with one; `nil` before any.
    var peerManager: PeerManager?
    /// The local candidates of `peerManager` being sent to the server.
    var forwarder: Task<Void, Never>?
    /// Whether the publisher endpoint was negotiated through `peerManager` (and not given up since).
    var published = false
    /// The users whose stream is subscribed to through `peerManager` (or being subscribed to).
    var subscribed: Set<String> = []
    /// Whether every participant that publishes is subscribed to.
    var subscribesToEveryone = false

    /// Whether the server's candidates for `endpoint` go to `peerManager`.
    func negotiates(_ endpoint: RoomEndpoint) -> Bool {
        switch endpoint {
        case .publisher: published
        case .subscriber(let user): subscribed.contains(user)
        }
    }

    /// Out of the room: nothing is negotiated any more; returns the endpoints whose connections to close.
    mutating func reset() -> [RoomEndpoint] {
        let endpoints = (published ? [RoomEndpoint.publisher] : []) + subscribed.sorted().map(RoomEndpoint.subscriber)
        published = false
        subscribed = []
        subscribesToEveryone = false
        return endpoints
    }
}
