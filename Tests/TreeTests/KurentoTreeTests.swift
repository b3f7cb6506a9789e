import RoomProtocol
import RoomServer
import Testing
import TestSupport
import TreeClient

/// Kurento Tree with its media in Kurento Media Server (docs/kurento.md#backend): TreeClients over real sockets,
/// the server with ``KurentoMediaBackend``, and the KMS double, whose object graph is the truth checked at each step.
@Suite("Tree through Kurento Media Server")
struct KurentoTreeTests {
    @Test("one pipeline, the source, sinks fed from it; a removed sink and a released tree release their objects; an Error event on the source reaches every owner as mediaError and drops the sinks",
          .enabled(if: SchemaValidation.mustRun, "python3 with jsonschema is missing"))
    func treeThroughKMS() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let backend = KurentoMediaBackend(configuration: .init(urls: [kms.url], reconnectInterval: .milliseconds(100)))
        let server = try await RoomServer.start(.init(media: backend))
        let wire = WireRecorder()
        let owner = TreeUser(server, wire), viewers = [TreeUser(server, wire), TreeUser(server, wire)]
        @Sendable func endpoints() -> Set<String> {
            Set(kms.liveObjects.filter { $0.value == "WebRtcEndpoint" }.keys)
        }

        try await withDeadline(.seconds(60), "a tree through KMS") {
            // Given a tree: creating it creates nothing at KMS
            let tree = try await owner.client.createTree()
            #expect(kms.liveObjectCount == 0)

            // When its owner sets the source and two viewers add a sink each (ICE both ways)
            try await owner.setSource(tree: tree, port: 41200)
            #expect(kms.pipelines.count == 1)
            let source = try #require(endpoints().first)
            var sinks: [String] = []
            for (index, viewer) in viewers.enumerated() {
                sinks.append(try await viewer.addSink(tree: tree, port: 41201 + index))
            }

            // Then KMS has one pipeline, the source's endpoint, and one endpoint per sink fed from the source's
            #expect(kms.pipelines.count == 1)
            #expect(endpoints().count == 3)
            for sink in endpoints().subtracting([source]) {
                let feeds = kms.connections(of: sink).filter { $0.sink == sink }
                #expect(Set(feeds.map(\.source)) == [source], "\(sink) is fed from \(feeds.map(\.source))")
                #expect(!feeds.isEmpty)
            }
            #expect(server.trees[tree] == TreeState(hasSource: true, sinks: sinks))

            // When viewer 0 removes its sink, its endpoint is released; when it adds one again, a new one is made
            let before = endpoints()
            try await viewers[0].client.removeSink(sinks[0], tree: tree)
            try await waitUntil("the removed sink's endpoint released") { endpoints().count == 2 }
            #expect(endpoints().contains(source))
            sinks[0] = try await viewers[0].addSink(tree: tree, port: 41203)
            #expect(endpoints().count == 3)
            #expect(endpoints() != before)

            // When KMS raises an Error event on the source's endpoint
            kms.emitError(on: source, description: "Error code 1: stream failed", type: "STREAM_ERROR_FAILED")

            // Then the owner hears it for the source, each viewer for its sink, as Tree mediaError
            let text = "STREAM_ERROR_FAILED: Error code 1: stream failed(errCode=1)"
            try await owner.waitForEvent("mediaError for the source") { $0 == .mediaError(text, tree: tree, endpoint: .source) }
            for (index, viewer) in viewers.enumerated() {
                let sink = sinks[index]
                try await viewer.waitForEvent("mediaError for its sink") {
                    $0 == .mediaError(text, tree: tree, endpoint: .sink(sink))
                }
            }
            // And the tree has neither source nor sinks, whose endpoints are released; the pipeline stays with it
            #expect(server.trees[tree] == TreeState(hasSource: false, sinks: []))
            try await waitUntil("every endpoint released") { endpoints().isEmpty }
            #expect(kms.pipelines.count == 1)

            // When the owner releases the tree, its pipeline goes: nothing is left at KMS
            try await owner.client.releaseTree(tree)
            try await waitUntil("the pipeline released") { kms.liveObjectCount == 0 }
            #expect(server.trees.isEmpty)
        }
        try wire.validate()
        for user in [owner] + viewers { await user.client.disconnect() }
        await server.shutdown()
    }
}
