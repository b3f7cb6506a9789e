import CLISupport
import JSONRPC
import PeerManager
import RoomProtocol
import SDP
import TreeClient

/// One connection of `tree-join`: the source's or one sink's. Its ``TreeClient`` and the ``PeerManager`` connection
/// that does its SDP (no real media); the server's candidates are added to it as they arrive, whichever sink id
/// they name (one endpoint per connection).
final class TreeParty: Sendable {
    let client: TreeClient
    let media = PeerManager()
    /// The PeerManager connection id.
    let name: String
    private let follower: Task<Void, Never>

    /// A party called `name`; `ended` is told when its connection ends (also when ``stop()`` closes it, which the
    /// run no longer listens to by then).
    init(url: String, name: String, configuration: TreeClient.Configuration, output: Output,
         ended: @escaping @Sendable (String) -> Void) {
        client = TreeClient(url: url, configuration: configuration)
        self.name = name
        let events = client.events, media = media
        follower = Task {
            do {
                for try await event in events {
                    switch event {
                    case .iceCandidate(let candidate, let tree, let endpoint):
                        do {
                            try await media.addICECandidate(candidate, for: name)
                            output.report(.iceCandidate(candidate, tree: tree, endpoint: endpoint))
                        } catch {
                            output.error("cannot add the ICE candidate \(candidate.candidate): \(error)")
                        }
                    case .mediaError(let description, let tree, let endpoint):
                        // docs/wire-protocol.md#media-errors: the server dropped the endpoint.
                        output.error("media error on the \(endpoint) of tree \(tree): \(description)")
                    case .connectionStateChanged(.disconnected(let end)):
                        ended("the \(name) connection ended: \(end.map(\.description) ?? "closed")")
                        return
                    default:
                        break
                    }
                }
            } catch {}
        }
    }

    /// Makes an offer (`direction`), has `call` answer it, applies the answer, and trickles a made-up host
    /// candidate on 127.0.0.1:`port` for `endpoint` of `tree`. Returns what `call` returned.
    func negotiate<T: Sendable>(_ direction: MediaDirection, port: Int, tree: String,
                                endpoint: @escaping @Sendable (T) -> TreeEndpoint,
                                _ call: (String) async throws -> (T, answer: String)) async throws -> T {
        let offer = try await media.generateOffer(for: name, media: .audioVideo(direction: direction))
        let (value, answer) = try await call(offer)
        try await media.processAnswer(answer, for: name)
        let local = try await media.addHostCandidate(address: "127.0.0.1", port: port, for: name)
        try await client.sendICECandidate(local, for: endpoint(value), tree: tree)
        return value
    }

    /// The signaling state of the PeerManager connection.
    var signalingState: String {
        get async { await media.connection(name)?.signalingState.rawValue ?? "closed" }
    }

    /// Ends the session (`closeSession`, so that the server keeps nothing of it for its reconnection window) and
    /// closes the connection, then lets the event follower finish the events that came before the close (their
    /// candidates are still reported); a follower that sees no close within a second is cancelled.
    func stop() async {
        await client.jsonRPCClient.closeSession()
        let follower = follower
        let grace = Task {
            try? await Task.sleep(for: .seconds(1))
            follower.cancel()
        }
        await follower.value
        grace.cancel()
    }
}
