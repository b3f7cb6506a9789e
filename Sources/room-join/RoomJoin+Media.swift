import CLISupport
import JSONRPC
import RoomClient
import SDP

/// `--publish`, `--receive` and `--receive-all` in the run loop.
extension RoomJoin {
    /// Publishes, saying that no real media goes with it.
    func publish(_ client: RoomClient, _ media: Media) async throws {
        try await call("publish") { try await media.publish(client) }
        output.report(.published)
    }

    /// Subscribes to `peer` when it publishes (and that was printed), is asked for and is not subscribed to yet.
    func receiveIfWanted(_ peer: Peer, _ client: RoomClient, _ media: inout Media) async throws {
        guard peer.isPublishing, media.announced.contains(peer.identifier), receiveAll || receive.contains(peer.identifier),
              !media.subscribed.contains(peer.identifier) else { return }
        try await call("subscribe to \(peer.identifier)") { try await media.receive(peer, client) }
        output.report(.subscribed(to: peer.identifier))
    }

    /// Keeps the media in step with `event` once the actions are done: server candidates go to PeerManager, later
    /// publishers are subscribed to, and a stream that ends is forgotten.
    func follow(_ event: RoomEvent, _ client: RoomClient, _ media: inout Media) async throws {
        switch event {
        case .iceCandidate(let candidate, let endpoint):
            do {
                try await media.add(candidate, for: endpoint)
            } catch {
                output.error("cannot add the ICE candidate \(candidate.candidate): \(Problem.describe(error))")
            }
        case .participantPublished(let peer):
            try await receiveIfWanted(peer, client, &media)
        case .participantUnpublished(let peer), .participantLeft(let peer):
            await media.forget(peer.identifier)
        case .connectionStateChanged(.rejoined):
            // The old session is gone with its subscriptions: RoomClient's offer provider renegotiates those to
            // participants still publishing; the others are forgotten, so a later publication is received again.
            for user in media.subscribed where client.peer(withIdentifier: user)?.isPublishing != true {
                await media.forget(user)
            }
        default:
            break
        }
    }
}
