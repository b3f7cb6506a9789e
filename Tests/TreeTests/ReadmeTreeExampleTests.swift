import JSONRPC
import PeerManager
import RoomProtocol
import RoomServer
import SDP
import Testing
import TreeClient

/// The Tree example of docs/tree.md (once the README's), kept compiling and true (the lines between the markers are
/// docs/tree.md's).
@Suite struct ReadmeTreeExampleTests {
    @Test func readmeTreeExampleWorksAsWritten() async throws {
        // docs/tree.md begin
        let server = try await RoomServer.start(.init())                     // Tree on ws://127.0.0.1:PORT/tree
        let master = TreeClient(url: server.treeURL)
        let tree = try await master.createTree()                              // the server's id
        let media = PeerManager()
        let offer = try await media.generateOffer(for: "source", media: .audioVideo(direction: .sendonly))
        try await media.processAnswer(try await master.setSource(sdpOffer: offer, tree: tree), for: "source")

        let viewer = TreeClient(url: server.treeURL)
        let events = viewer.events                                            // before addSink: its candidates come first
        let sinkOffer = try await media.generateOffer(for: "sink", media: .audioVideo(direction: .recvonly))
        let sink = try await viewer.addSink(sdpOffer: sinkOffer, tree: tree)  // sink.id, sink.sdpAnswer
        try await media.processAnswer(sink.sdpAnswer, for: "sink")
        let local = try await media.addHostCandidate(address: "127.0.0.1", port: 40001, for: "sink")
        try await viewer.sendICECandidate(local, for: .sink(sink.id), tree: tree)
        for try await event in events {                                       // source candidates say .source
            guard case .iceCandidate(let candidate, tree, .sink(sink.id)) = event else { continue }
            try await media.addICECandidate(candidate, for: "sink")
            break
        }
        try await viewer.removeSink(sink.id, tree: tree)
        try await master.removeSource(tree: tree)
        try await master.releaseTree(tree)
        // docs/tree.md end
        #expect(await media.connection("sink")?.signalingState == .stable)
        #expect(server.trees.isEmpty)
        await master.disconnect()
        await viewer.disconnect()
        await server.shutdown()
    }
}
