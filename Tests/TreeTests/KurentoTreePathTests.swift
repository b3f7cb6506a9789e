import PeerManager
import RoomProtocol
import RoomServer
import SDP
import Testing
import TreeClient

/// What stock Tree clients do that a server must take (docs/wire-protocol.md#stock-kurento): the stock server's path
/// `/kurento-tree` (KurentoTree.js and `KurentoTreeClient.java` reach it through SockJS: ``SockJSTransportTests``),
/// and `"sdpMid": ""` for a candidate without a mid (NBMTreeClient).
@Suite struct KurentoTreePathTests {
    @Test func treeIsServedOnKurentoTreeAndAnEmptySdpMidFallsBackToTheMLineIndex() async throws {
        // Given a client that dials /kurento-tree instead of /tree
        let backend = SimulatedMediaBackend()
        let server = try await RoomServer.start(.init(media: backend))
        let url = String(server.treeURL.dropLast(RoomServer.treePath.count)) + "/kurento-tree"
        let client = TreeClient(url: url, configuration: TreeUser.patient)
        let media = PeerManager()

        // When it creates a tree and sets its source
        let tree = try await client.createTree()
        let offer = try await media.generateOffer(for: "source", media: .audioVideo(direction: .sendonly))
        try await media.processAnswer(try await client.setSource(sdpOffer: offer, tree: tree), for: "source")

        // And sends a candidate with no mid, which goes out as "sdpMid": "" with sdpMLineIndex 1
        var candidate = try await media.addHostCandidate(address: "127.0.0.1", port: 41999, for: "source")
        candidate.sdpMid = nil
        candidate.sdpMLineIndex = 1
        try await client.sendICECandidate(candidate, for: .source, tree: tree)

        // Then the server took it, on the second m-line
        let remote = try #require(await backend.remoteDescription(of: .treeSource(tree)))
        #expect(remote.media.map { $0.candidates.map(\.port) } == [[], [41999]])
        await client.disconnect()
        await server.shutdown()
    }
}
