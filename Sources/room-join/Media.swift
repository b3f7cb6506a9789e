import PeerManager
import RoomClient
import RoomProtocol

/// The SDP side of `--publish`, `--receive` and `--receive-all`: a ``/PeerManager/PeerManager`` (no real media is
/// captured or sent) that ``/RoomClient/RoomClient`` negotiates through (``/RoomClient/RoomClient/publish(using:loopback:)``,
/// ``/RoomClient/RoomClient/subscribe(to:using:)``): offers, answers, the server's candidates and forgetting a stream
/// that ended are the library's; what to subscribe to, and when, is this tool's.
struct Media {
    let peerManager = PeerManager()
    /// Users whose publication this run has printed (in `joined`, or a `participantPublished` line): a subscription
    /// to a stream is made, and printed, only after its publication, in causal order, although the room's model may
    /// know of a publication before its event is read.
    private(set) var announced: Set<String> = []

    /// Notes what `peers` (the participants `joined` listed) publish.
    mutating func announce(_ peers: [Peer]) {
        for peer in peers where peer.isPublishing { announced.insert(peer.identifier) }
    }

    /// Notes a publication `event` printed, or its end.
    mutating func note(_ event: RoomEvent) {
        switch event {
        case .participantPublished(let peer): announced.insert(peer.identifier)
        case .participantUnpublished(let peer), .participantLeft(let peer): announced.remove(peer.identifier)
        default: break
        }
    }

    /// Fresh offers after a rejoin (the server lost the session, docs/architecture.md#room-recovery), through the
    /// same PeerManager; `restored` is told of each endpoint whose answer was applied. RoomClient calls it on its own.
    func offerProvider(user: String, restored: @escaping @Sendable (RoomEndpoint) -> Void) -> OfferProvider {
        OfferProvider(peerManager: peerManager, user: user, answered: restored)
    }
}
