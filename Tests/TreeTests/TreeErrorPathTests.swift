import JSONRPC
import JSONRPCWebSocket
import PeerManager
import RoomProtocol
import RoomServer
import SDP
import TestSupport
import Testing
import TreeClient

/// Every refusal of the Tree server, over real sockets: Tree error 2 with a message naming the problem, -32602
/// naming the param, -32601 for unknown methods (Kurento sent 1); nothing a refusal touches changes.
@Suite("Tree error paths")
struct TreeErrorPathTests {
    @Test("unknown tree, duplicate id, sink before source, source twice, unknown sink, another session's tree or sink",
          .enabled(if: SchemaValidation.mustRun, "python3 with jsonschema is missing"))
    func treeExceptions() async throws {
        let server = try await RoomServer.start(.init(authorizeTreeId: { _ in true }))
        let wire = WireRecorder()
        let owner = TreeUser(server, wire), viewer = TreeUser(server, wire), stranger = TreeUser(server, wire)
        let candidate = IceCandidate(candidate: "candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host",
                                     sdpMid: "0", sdpMLineIndex: 0)
        let offer = try await PeerManager().generateOffer(for: "x", media: .audioVideo(direction: .sendonly))

        // An unknown tree: every method
        let notFound = "Tree 'nope' not found"
        #expect(try await Self.treeError { try await owner.client.releaseTree("nope") } == notFound)
        #expect(try await Self.treeError { _ = try await owner.client.setSource(sdpOffer: offer, tree: "nope") } == notFound)
        #expect(try await Self.treeError { try await owner.client.removeSource(tree: "nope") } == notFound)
        #expect(try await Self.treeError { _ = try await owner.client.addSink(sdpOffer: offer, tree: "nope") } == notFound)
        #expect(try await Self.treeError { try await owner.client.removeSink("s", tree: "nope") } == notFound)
        #expect(try await Self.treeError { try await owner.client.sendICECandidate(candidate, for: .source, tree: "nope") }
                == notFound)

        // A duplicate id
        try await owner.client.createTree(id: "t")
        #expect(try await Self.treeError { try await owner.client.createTree(id: "t") } == "Tree 't' already exists")

        // No source yet: no sink, nothing to remove, no source candidate; an offer the media cannot answer
        let noSource = "Tree 't' has no source"
        #expect(try await Self.treeError { _ = try await viewer.client.addSink(sdpOffer: offer, tree: "t") } == noSource)
        #expect(try await Self.treeError { try await owner.client.removeSource(tree: "t") } == noSource)
        #expect(try await Self.treeError { try await owner.client.sendICECandidate(candidate, for: .source, tree: "t") }
                == noSource)
        #expect(try await Self.treeError { _ = try await owner.client.setSource(sdpOffer: "not sdp", tree: "t") }?
            .hasPrefix("media backend failed") == true)
        #expect(server.trees["t"] == TreeState(hasSource: false, sinks: []))

        // A second source
        try await owner.setSource(tree: "t", port: 41000)
        #expect(try await Self.treeError { _ = try await owner.client.setSource(sdpOffer: offer, tree: "t") }
                == "Tree 't' already has a source")

        // Unknown sinks
        let unknownSink = "Sink 'x' not found in tree 't'"
        #expect(try await Self.treeError { try await owner.client.removeSink("x", tree: "t") } == unknownSink)
        #expect(try await Self.treeError { try await viewer.client.sendICECandidate(candidate, for: .sink("x"), tree: "t") }
                == unknownSink)

        // Another session's tree and sink
        let sink = try await viewer.addSink(tree: "t", port: 41001)
        let notYourTree = "Tree 't' belongs to another session", notYourSink = "Sink '\(sink)' belongs to another session"
        #expect(try await Self.treeError { try await stranger.client.releaseTree("t") } == notYourTree)
        #expect(try await Self.treeError { _ = try await stranger.client.setSource(sdpOffer: offer, tree: "t") } == notYourTree)
        #expect(try await Self.treeError { try await stranger.client.removeSource(tree: "t") } == notYourTree)
        #expect(try await Self.treeError { try await stranger.client.sendICECandidate(candidate, for: .source, tree: "t") }
                == notYourTree)
        #expect(try await Self.treeError { try await stranger.client.removeSink(sink, tree: "t") } == notYourSink)
        #expect(try await Self.treeError { try await stranger.client.sendICECandidate(candidate, for: .sink(sink), tree: "t") }
                == notYourSink)

        // Then nothing the refusals touched changed
        #expect(server.trees == ["t": TreeState(hasSource: true, sinks: [sink])])
        try wire.validate()
        await server.shutdown()
    }

    @Test("bad params get -32602 naming the param; unknown methods -32601, also Tree's on /room and Room's on /tree",
          .enabled(if: SchemaValidation.mustRun, "python3 with jsonschema is missing"))
    func invalidRequests() async throws {
        let server = try await RoomServer.start(.init(authorizeTreeId: { _ in true }))
        let wire = WireRecorder()
        let rpc = JSONRPCClient(transport: wire.transport(server.treeURL), configuration: .init(retries: 0))
        _ = try await rpc.call("createTree", params: ["treeId": "t"])

        for (method, params, member) in [
            ("createTree", ["treeId": 7], "treeId"), ("createTree", ["treeId": ""], "treeId"),
            ("releaseTree", nil, "releaseTree params"), ("setTreeSource", ["treeId": "t"], "offerSdp"),
            ("addTreeSink", ["offerSdp": "v=0"], "treeId"), ("removeTreeSink", ["treeId": "t"], "sinkId"),
            ("addIceCandidate", ["treeId": "t", "candidate": "c", "sdpMid": "0"], "sdpMLineIndex"),
            ("addIceCandidate", ["treeId": "t", "candidate": "c", "sdpMid": "0", "sdpMLineIndex": "0"], "sdpMLineIndex"),
        ] as [(String, JSONValue?, String)] {
            let error = try await Self.rpcError { _ = try await rpc.call(method, params: params) }
            #expect(error?.code == -32602, "\(method) \(params?.jsonText ?? "-")")
            // The detail is the error's data, which Kurento's conventions wrap as {"value", "sessionId"}
            let detail = error?.data?["value"]?.stringValue ?? ""
            #expect(detail.contains(member), "'\(detail)' names \(member)")
        }
        // The doc's names (removeTree, remoteTreeSource) and Room's methods are unknown here
        for method in ["removeTree", "remoteTreeSource", "joinRoom", "nope"] {
            #expect(try await Self.rpcError { _ = try await rpc.call(method, params: ["treeId": "t"]) }?.code == -32601)
        }
        // And Tree's methods are unknown on /room: separate routers
        let room = JSONRPCClient(url: server.url, configuration: .init(retries: 0))
        #expect(try await Self.rpcError { _ = try await room.call("createTree", params: ["treeId": "u"]) }?.code == -32601)

        #expect(server.trees == ["t": TreeState(hasSource: false, sinks: [])])
        try wire.validate()
        await rpc.close()
        await room.close()
        await server.shutdown()
    }

    @Test("an ended session's trees are released and its sinks removed, at the media backend too")
    func sessionEnd() async throws {
        let backend = SimulatedMediaBackend()
        let server = try await RoomServer.start(.init(media: backend, reconnectionWindow: .milliseconds(50),
                                                      authorizeTreeId: { _ in true }))
        let wire = WireRecorder()
        let owner = TreeUser(server, wire), viewer = TreeUser(server, wire)
        let tree = try await owner.client.createTree()
        try await owner.setSource(tree: tree, port: 41000)
        try await viewer.client.createTree(id: "viewers-own")
        try await viewer.addSink(tree: tree, port: 41001)

        // When the viewer's connection ends, its sink and its tree go; when the owner's does, its tree goes
        await viewer.client.disconnect()
        try await waitUntil("the viewer's session to end") { server.trees[tree]?.sinks == [] }
        #expect(server.trees["viewers-own"] == nil)
        // (the backend releases after the registry forgot them)
        try await waitUntil("the viewer's sink to be released") { backend.endpoints == [.treeSource(tree)] }
        await owner.client.disconnect()
        try await waitUntil("the owner's session to end") { server.trees.isEmpty }
        try await waitUntil("the media to be released") { backend.endpoints.isEmpty }
        await server.shutdown()
    }

    /// The message of the ``TreeError`` 2 that `body` throws; `nil` (with an issue) when it throws anything else.
    static func treeError(_ body: () async throws -> Void) async throws -> String? {
        do {
            try await body()
            Issue.record("the call succeeded")
        } catch let error as TreeError {
            #expect(error.code == .treeException, "\(error)")
            return error.message
        } catch {
            Issue.record("not a TreeError: \(error)")
        }
        return nil
    }

    /// The error object of the ``JSONRPC/RPCError`` that `body` throws.
    static func rpcError(_ body: () async throws -> Void) async throws -> RPCErrorObject? {
        do {
            try await body()
            Issue.record("the call succeeded")
        } catch let error as RPCError {
            return error.remoteError
        }
        return nil
    }
}
