import JSONRPC
import PeerManager
import RoomProtocol
import RoomServer
import SDP
import TestSupport
import Testing
import TreeClient

/// Kurento Tree end to end over real sockets: TreeClients against an in-process RoomServer on `/tree`, SDP from
/// PeerManager, media from the SimulatedMediaBackend; every message checked against the Tree schema.
@Suite("Tree end to end")
struct TreeEndToEndTests {
    @Test("create, set the source, add 3 sinks, ICE both ways, remove a sink and the source, release",
          .enabled(if: SchemaValidation.mustRun, "python3 with jsonschema is missing"))
    func wholeLifecycle() async throws {
        let backend = SimulatedMediaBackend()
        let server = try await RoomServer.start(.init(media: backend, authorizeTreeId: { _ in true }))
        let wire = WireRecorder()
        let master = TreeUser(server, wire)
        let viewers = (0..<3).map { _ in TreeUser(server, wire) }

        // Given a tree with a server-generated id (NBMTreeClient dropped it), and one with our own id
        let tree = try await master.client.createTree()
        #expect(!tree.isEmpty)
        #expect(try await master.client.createTree(id: "channel-1") == "channel-1")
        #expect(Set(server.trees.keys) == [tree, "channel-1"])

        // When the master sets the source and three viewers add a sink each, trickling ICE both ways
        try await master.setSource(tree: tree, port: 41000)
        var sinks: [String] = []
        for (index, viewer) in viewers.enumerated() {
            sinks.append(try await viewer.addSink(tree: tree, port: 41001 + index))
        }

        // Then the server has the source and the sinks, and each client candidate reached its endpoint
        #expect(server.trees[tree] == TreeState(hasSource: true, sinks: sinks))
        #expect(Set(sinks).count == 3)
        #expect(await Self.remoteCandidatePorts(backend, .treeSource(tree)) == [41000])
        for (index, sink) in sinks.enumerated() {
            #expect(await Self.remoteCandidatePorts(backend, .treeSink(sink, of: tree)) == [41001 + index])
        }
        // And each client got the server candidates of its own endpoint only, once: a marker sink per client
        // closes the list (its candidate comes after every earlier notification to that client)
        var markers: [String] = []
        for (index, user) in ([master] + viewers).enumerated() {
            markers.append(try await user.addSink(tree: tree, port: 42000 + index))
        }
        #expect(Self.endpoints(try await master.events(before: .sink(markers[0]), of: tree)) == [.source])
        for (index, viewer) in viewers.enumerated() {
            #expect(Self.endpoints(try await viewer.events(before: .sink(markers[index + 1]), of: tree))
                    == [.sink(sinks[index])])
        }
        for (index, user) in ([master] + viewers).enumerated() {
            try await user.client.removeSink(markers[index], tree: tree)
        }

        // When viewer 0 removes its sink, and the tree's owner removes viewer 1's
        try await viewers[0].client.removeSink(sinks[0], tree: tree)
        try await master.client.removeSink(sinks[1], tree: tree)
        // Then only viewer 2's sink is left, at the server and at the media backend
        #expect(server.trees[tree] == TreeState(hasSource: true, sinks: [sinks[2]]))
        #expect(backend.endpoints == [.treeSource(tree), .treeSink(sinks[2], of: tree)].sorted { $0.description < $1.description })

        // When the master removes the source, the sink stays; when it releases the trees, everything goes
        try await master.client.removeSource(tree: tree)
        #expect(server.trees[tree] == TreeState(hasSource: false, sinks: [sinks[2]]))
        #expect(backend.endpoints == [.treeSink(sinks[2], of: tree)])
        try await master.client.releaseTree(tree)
        try await master.client.releaseTree("channel-1")
        #expect(server.trees.isEmpty)
        #expect(backend.endpoints.isEmpty)

        try wire.validate()
        for user in [master] + viewers { await user.client.disconnect() }
        await server.shutdown()
    }

    /// The ports of the client candidates applied to `endpoint` at the simulated media backend.
    static func remoteCandidatePorts(_ backend: SimulatedMediaBackend, _ endpoint: MediaEndpointID) async -> [Int] {
        (await backend.remoteDescription(of: endpoint))?.media.flatMap { $0.candidates.map(\.port) } ?? []
    }

    /// The endpoints of the candidate events among `events`; any other event shows up as a sink named after it.
    static func endpoints(_ events: [TreeEvent]) -> [TreeEndpoint] {
        events.map { event in
            guard case .iceCandidate(_, _, let endpoint) = event else { return .sink("not a candidate: \(event)") }
            return endpoint
        }
    }
}
