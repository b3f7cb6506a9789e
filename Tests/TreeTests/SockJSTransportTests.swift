import Foundation
import JSONRPC
import JSONRPCWebSocket
import PeerManager
import RoomServer
import SDP
import TestSupport
import Testing
import TreeClient

/// SockJS's WebSocket transport on Tree's and Room's paths (docs/wire-protocol.md#sockjs), as the stock clients use
/// it: KurentoTree.js (`useSockJS: true`) through `/info` and `/kurento-tree/<server>/<session>/websocket`, with
/// ``SockJSSpecClient`` written from the specification; `KurentoTreeClient.java` through the raw
/// `/kurento-tree/websocket`, with our ``TreeClient``.
@Suite struct SockJSTransportTests {
    /// The `ws://host:port` of `server`.
    static func base(_ server: RoomServer) -> String { String(server.url.dropLast("/room".count)) }

    /// The port of `server`.
    static func port(_ server: RoomServer) throws -> Int { try #require(URLComponents(string: server.url)?.port) }

    /// One plain-HTTP exchange with `server`.
    static func get(_ server: RoomServer, _ path: String, headers: [(String, String)] = []) async throws -> RawHTTPResponse {
        let http = try RawHTTPClient(port: try port(server))
        defer { http.shutdown() }
        try http.request("GET", path, headers: headers + [("Connection", "close")])
        return try await withDeadline(.seconds(10), "the answer to GET \(path)") {
            guard let response = await http.response() else { throw DeadlineExceeded(what: "a response", timeout: .zero) }
            return response
        }
    }

    @Test(arguments: ["/kurento-tree", "/tree", "/room"])
    func infoAnswersAsSpringsSockJSServiceDoes(_ prefix: String) async throws {
        let server = try await RoomServer.start(.init())
        defer { Task { await server.shutdown() } }

        // Given GET <prefix>/info from a page of another origin, as sockjs-client sends it
        let response = try await Self.get(server, prefix + "/info", headers: [("Origin", "http://pages.example")])

        // Then it is JSON, not cacheable, CORS with credentials for that origin, and says WebSocket without cookies
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.replacingOccurrences(of: " ", with: "") == "application/json;charset=UTF-8")
        #expect(response.headers["cache-control"] == "no-store, no-cache, must-revalidate, max-age=0")
        #expect(response.headers["access-control-allow-origin"] == "http://pages.example")
        #expect(response.headers["access-control-allow-credentials"] == "true")
        #expect(response.headers["set-cookie"] == nil)
        let info = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(info["websocket"] as? Bool == true)
        #expect(info["cookie_needed"] as? Bool == false)
        #expect(info["origins"] as? [String] == ["*:*"])
        let entropy = try #require(info["entropy"] as? Int)
        #expect((0...Int(UInt32.max)).contains(entropy))

        // And without an Origin (or with "null") the origin allowed is "*"
        #expect(try await Self.get(server, prefix + "/info").headers["access-control-allow-origin"] == "*")
        #expect(try await Self.get(server, prefix + "/info", headers: [("Origin", "null")])
            .headers["access-control-allow-origin"] == "*")
    }

    @Test func otherSockJSTransportsAreNotFoundAndAPlainGETOfTheWebSocketIsRefused() async throws {
        let server = try await RoomServer.start(.init())
        defer { Task { await server.shutdown() } }
        for transport in ["xhr", "xhr_send", "xhr_streaming", "eventsource", "htmlfile", "jsonp"] {
            #expect(try await Self.get(server, "/kurento-tree/000/abc/\(transport)").status == 404)
        }
        #expect(try await Self.get(server, "/kurento-tree/iframe.html").status == 404)
        for path in ["/kurento-tree/000/abc/websocket", "/kurento-tree/websocket"] {
            let refused = try await Self.get(server, path)
            #expect(refused.status == 400)
            #expect(String(decoding: refused.body, as: UTF8.self).contains(#"Can "Upgrade" only to "WebSocket"."#))
        }
        for path in ["/kurento-tree/000/abc/xhr_streaming", "/kurento-tree/a./b/websocket", "/kurento-tree//b/websocket"] {
            await #expect(throws: (any Error).self) { try await WebSocketConnection.connect(to: Self.base(server) + path) }
        }
    }

    @Test func aSockJSClientCreatesATreeSetsItsSourceAndAddsASink() async throws {
        let server = try await RoomServer.start(.init(media: SimulatedMediaBackend()))
        defer { Task { await server.shutdown() } }
        let media = PeerManager()

        // Given a SockJS session on /kurento-tree: the open frame comes first
        let source = try await SockJSSpecClient.open(Self.base(server) + "/kurento-tree")
        #expect(try await source.nextFrame() == .open)

        // When it creates a tree and sets the source, each request a JSON array of one string
        let created = try await source.call("createTree", id: 1)
        let tree = try #require(created["result"]?["value"]?.stringValue)
        let offer = try await media.generateOffer(for: "source", media: .audioVideo(direction: .sendonly))
        let answer = try await source.call("setTreeSource", ["treeId": .string(tree), "offerSdp": .string(offer)], id: 2)
        #expect(answer["result"]?["answerSdp"]?.stringValue?.hasPrefix("v=0") == true)

        // And another session adds a sink
        let sink = try await SockJSSpecClient.open(Self.base(server) + "/kurento-tree")
        #expect(try await sink.nextFrame() == .open)
        let sinkOffer = try await media.generateOffer(for: "sink", media: .audioVideo(direction: .recvonly))
        let added = try await sink.call("addTreeSink", ["treeId": .string(tree), "offerSdp": .string(sinkOffer)], id: 1)

        // Then the server knows the tree, its source and the sink
        let sinkId = try #require(added["result"]?["sinkId"]?.stringValue)
        #expect(server.trees[tree]?.sinks.contains(sinkId) == true)
        await source.close()
        await sink.close()
    }

    @Test func severalMessagesInOneClientFrameAreEachAnswered() async throws {
        let server = try await RoomServer.start(.init())
        defer { Task { await server.shutdown() } }
        let client = try await SockJSSpecClient.open(Self.base(server) + "/kurento-tree")
        #expect(try await client.nextFrame() == .open)

        // When one WebSocket message carries two requests, and an empty message comes first (ignored)
        try await client.sendRaw("")
        try await client.send([RPCRequest(id: 1, method: "createTree").jsonText,
                               RPCRequest(id: 2, method: "createTree").jsonText])

        // Then both are answered, with two trees
        var answered: [JSONValue: JSONValue] = [:]
        while answered.count < 2 {
            for text in try await client.nextMessages() {
                let message = try JSONValue(parsing: text)
                answered[message["id"] ?? .null] = message["result"]?["value"]
            }
        }
        #expect(Set(answered.keys) == [1, 2])
        #expect(Set(answered.values).count == 2)
        await client.close()
    }

    @Test func anIdleSessionGetsHeartbeats() async throws {
        // Given a server with a short heartbeat interval
        let server = try await RoomServer.start(.init(sockJSHeartbeatInterval: .milliseconds(100)))
        defer { Task { await server.shutdown() } }
        let client = try await SockJSSpecClient.open(Self.base(server) + "/room")
        #expect(try await client.nextFrame() == .open)

        // Then silence brings heartbeats, again and again
        #expect(try await client.nextFrame() == .heartbeat)
        #expect(try await client.nextFrame() == .heartbeat)

        // And a request between them is still answered in a message frame
        let pong = try await client.call("ping", ["interval": 240000], id: 7)
        #expect(pong["result"]?["value"] == "pong")
        await client.close()
    }

    @Test func theServerSendsACloseFrameBeforeItClosesTheWebSocket() async throws {
        let server = try await RoomServer.start(.init())
        defer { Task { await server.shutdown() } }
        let client = try await SockJSSpecClient.open(Self.base(server) + "/kurento-tree")
        #expect(try await client.nextFrame() == .open)

        // When the client ends its session
        try await client.send([RPCRequest(id: 1, method: "closeSession").jsonText])

        // Then the reply, then the close frame, then the WebSocket closes with the same code
        let reply = try JSONValue(parsing: try #require(try await client.nextMessages().first))
        #expect(reply["id"] == 1)
        #expect(try await client.nextFrame() == .close(1000, "session closed"))
        let info = try await withDeadline(.seconds(10), "the WebSocket close") { await client.socket.closeInfo }
        #expect(info.code.rawValue == 1000)
    }

    @Test(arguments: [#"["a"#, "{}", "[1]", #"{"jsonrpc":"2.0","method":"ping","id":1}"#])
    func brokenDataEndsTheSessionWithACloseFrame(_ payload: String) async throws {
        let server = try await RoomServer.start(.init())
        defer { Task { await server.shutdown() } }
        let client = try await SockJSSpecClient.open(Self.base(server) + "/kurento-tree")
        #expect(try await client.nextFrame() == .open)

        // When the client sends what is not a JSON array of strings (a bare JSON-RPC object included)
        try await client.sendRaw(payload)

        // Then the server closes the session as Spring does (BAD_DATA): the close frame, then the WebSocket, 1007
        #expect(try await client.nextFrame() == .close(1007, ""))
        let info = try await withDeadline(.seconds(10), "the WebSocket close") { await client.socket.closeInfo }
        #expect(info.code.rawValue == 1007)
    }

    @Test func aSockJSClientJoinsARoomOnSlashRoom() async throws {
        let server = try await RoomServer.start(.init())
        defer { Task { await server.shutdown() } }
        let alice = try await SockJSSpecClient.open(Self.base(server) + "/room")
        #expect(try await alice.nextFrame() == .open)
        let joined = try await alice.call("joinRoom", ["user": "alice", "room": "r1"], id: 1)
        #expect(joined["result"]?["value"]?.arrayValue == [])

        // When bob joins too, alice's notification comes framed like any message
        let bob = try await SockJSSpecClient.open(Self.base(server) + "/room")
        #expect(try await bob.nextFrame() == .open)
        _ = try await bob.call("joinRoom", ["user": "bob", "room": "r1"], id: 1)
        let notification = try JSONValue(parsing: try #require(try await alice.nextMessages().first))
        #expect(notification["method"] == "participantJoined")
        #expect(notification["params"]?["id"] == "bob")
        await alice.close()
        await bob.close()
    }

    @Test func treeClientWorksThroughTheRawWebSocketKurentoTreeClientJavaDials() async throws {
        // Given our TreeClient on /kurento-tree/websocket, as KurentoTreeClient.java appends "/websocket"
        let backend = SimulatedMediaBackend()
        let server = try await RoomServer.start(.init(media: backend))
        defer { Task { await server.shutdown() } }
        let client = TreeClient(url: Self.base(server) + "/kurento-tree/websocket", configuration: TreeUser.patient)
        let media = PeerManager()

        // When it creates a tree and sets the source (plain JSON-RPC: no SockJS frames on this path)
        let tree = try await client.createTree()
        let offer = try await media.generateOffer(for: "source", media: .audioVideo(direction: .sendonly))
        try await media.processAnswer(try await client.setSource(sdpOffer: offer, tree: tree), for: "source")

        // Then the server has the tree with its source
        #expect(server.trees[tree]?.hasSource == true)
        await client.disconnect()
    }
}
