import JSONRPC
import PeerManager
import RoomProtocol
import RoomServer
import SDP
import SignalingSupport
import TestSupport
import Testing
import TreeClient

/// No user code runs under a lock of the client (docs/architecture.md#callbacks): the tree client's completion closures
/// and delegate may read it and call it back.
@Suite("TreeClient callbacks call back into the client")
struct TreeReentrancyTests {
    /// A delegate that releases the tree once it gets the source's candidate, reading the client as it does.
    final class ReleasingDelegate: TreeClientDelegate {
        let log = LockedValue<[String]>([])
        func client(_ client: TreeClient, didReceive candidate: IceCandidate, for endpoint: TreeEndpoint, tree: String) {
            log.withLock { $0.append("candidate for \(endpoint) while \(client.connectionState)") }
            client.releaseTree(tree) { [log] result in
                log.withLock { $0.append((try? result.get()) == nil ? "release failed" : "released") }
            }
        }
    }

    @Test("a completion closure and the delegate can read the client and call it")
    func callbacksCallBack() async throws {
        // Given a client of a tree server whose delegate releases the tree on the source's candidate
        let server = try await RoomServer.start(.init())
        let client = TreeClient(url: server.treeURL, configuration: TreeUser.patient)
        let delegate = ReleasingDelegate()
        client.delegate = delegate
        let offer = try await PeerManager().generateOffer(for: "s", media: .audioVideo(direction: .sendonly))

        // When createTree's completion reads the client and sets the source from inside
        let log = LockedValue<[String]>([])
        client.createTree { result in
            guard let tree = try? result.get() else { return log.withLock { $0.append("createTree failed") } }
            log.withLock { $0.append("created while \(client.connectionState)") }
            client.setSource(sdpOffer: offer, tree: tree) { answer in
                log.withLock { $0.append((try? answer.get())?.hasPrefix("v=0") == true ? "source set" : "no source") }
            }
        }

        // Then both completions ran, and the delegate's release went through
        try await waitUntil("the release") { delegate.log.withLock { $0 }.count == 2 && log.withLock { $0 }.count == 2 }
        #expect(log.withLock { $0 } == ["created while connected", "source set"])
        #expect(delegate.log.withLock { $0 } == ["candidate for source while connected", "released"])
        #expect(server.trees.isEmpty)
        await client.disconnect()
        await server.shutdown()
    }
}
