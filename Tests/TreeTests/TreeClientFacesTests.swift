import JSONRPC
import PeerManager
import RoomProtocol
import RoomServer
import SDP
import SignalingSupport
import TestSupport
import Testing
import TreeClient

/// The delegate and completion-closure faces of ``TreeClient``, with the NBMTreeClient bugs fixed: the generated id
/// comes back, `setSource` reports its failure, and source candidates reach the delegate as such.
@Suite("TreeClient faces")
struct TreeClientFacesTests {
    /// Records what the delegate is told.
    final class Delegate: TreeClientDelegate {
        let candidates = LockedValue<[(tree: String, endpoint: TreeEndpoint)]>([])
        let events = LockedValue(0)

        func client(_ client: TreeClient, didReceive candidate: IceCandidate, for endpoint: TreeEndpoint, tree: String) {
            candidates.withLock { $0.append((tree, endpoint)) }
        }

        func client(_ client: TreeClient, didReceive event: TreeEvent) {
            if case .iceCandidate = event { events.withLock { $0 += 1 } }
        }
    }

    @Test("closures: createTree gives the generated id, setSource's failure and answer both arrive; the delegate gets the source candidate")
    func faces() async throws {
        let server = try await RoomServer.start(.init())
        let client = TreeClient(url: server.treeURL, configuration: TreeUser.patient)
        let delegate = Delegate()
        client.delegate = delegate

        let tree = try await Self.completion { client.createTree(completion: $0) }.get()
        #expect(!tree.isEmpty && server.trees[tree] != nil)
        let offer = try await PeerManager().generateOffer(for: "s", media: .audioVideo(direction: .sendonly))
        let failure = await Self.completion { client.setSource(sdpOffer: offer, tree: "nope", completion: $0) }
        guard case .failure(let error as TreeError) = failure else {
            Issue.record("setSource on an unknown tree: \(failure)")
            return
        }
        #expect(error.message == "Tree 'nope' not found")
        let answer = try await Self.completion { client.setSource(sdpOffer: offer, tree: tree, completion: $0) }.get()
        #expect(answer.hasPrefix("v=0"))

        try await waitUntil("the delegate to get the source candidate") { delegate.events.withLock { $0 } == 1 }
        #expect(delegate.candidates.withLock { $0 }.map(\.tree) == [tree])
        #expect(delegate.candidates.withLock { $0 }.map(\.endpoint) == [.source])
        _ = await Self.completion { (done: @escaping @Sendable (Result<Void, any Error>) -> Void) in
            client.disconnect { done(.success(())) }
        }
        await server.shutdown()
    }

    /// Waits for the one completion `start` hands its closure to.
    static func completion<T: Sendable>(
        _ start: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Void
    ) async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: $0) }
        }
    }
}
