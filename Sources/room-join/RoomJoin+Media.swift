import CLISupport
import JSONRPC
import RoomClient

/// `--publish`, `--receive` and `--receive-all` in the run loop.
extension RoomJoin {
    /// Publishes, saying that no real media goes with it.
    func publish(_ client: RoomClient, _ media: Media) async throws {
        try await call("publish") { try await client.publish(using: media.peerManager) }
        output.report(.published)
    }

    /// Subscribes to `peer` when it publishes (and that was printed), is asked for and is not subscribed to yet.
    func receiveIfWanted(_ peer: Peer, _ client: RoomClient, _ media: Media) async throws {
        guard peer.isPublishing, media.announced.contains(peer.identifier), receiveAll || receive.contains(peer.identifier),
              !client.subscriptions.contains(peer.identifier) else { return }
        try await call("subscribe to \(peer.identifier)") { try await client.subscribe(to: peer, using: media.peerManager) }
        output.report(.subscribed(to: peer.identifier))
    }

    /// Keeps the media in step with `event` once the actions are done: later publishers are subscribed to. (The
    /// server's candidates, a stream that ends and the subscriptions a rejoin drops are RoomClient's.)
    func follow(_ event: RoomEvent, _ client: RoomClient, _ media: Media) async throws {
        if case .participantPublished(let peer) = event { try await receiveIfWanted(peer, client, media) }
    }
}
