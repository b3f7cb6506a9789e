import Foundation
import TestSupport
import Testing
import WebSocketTransport

/// The transport's traps and the faults tests drive.
@Suite struct FaultTests {
    typealias JSON = RawKurentoClient.JSON

    @Test func unparsableJSONGetsNoReplyAndTheSocketIsNeverReadAgainButStillCarriesEvents() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        _ = try await client.result("subscribe", ["object": "manager_ServerManager", "type": "ObjectCreated"])
        try await client.send(text: "{not json")
        try await client.send(text: #"{"jsonrpc":"2.0","id":99,"method":"ping"}"#)
        try await waitUntil("the socket stalled") { kms.stalledConnections == 1 }
        // Another socket makes progress (and an event for the stalled socket's session).
        let other = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await other.create("MediaPipeline")
        let created = try await client.awaitEvents("ObjectCreated")
        #expect((created[0]["data"] as? JSON)?["object"] as? String == pipeline)
        // The ping after the garbage was never read: no reply, no run; the socket is still open.
        #expect(kms.requestCounts.methods["ping"] == nil)
        #expect(client.received.count == 2)  // the subscribe reply and the event
        #expect(kms.connectionCount == 2)
        #expect(client.connection.isOpen)
    }

    @Test func aConcatenationIsReadAsItsFirstObject() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        try await client.send(text: #"{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        try await client.send(text: #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#)
        try await waitUntil("two pongs") { client.received.count == 2 }
        #expect(client.received.compactMap { RawKurentoClient.parse($0)?["id"] as? Int } == [1, 3])
        #expect(kms.stalledConnections == 0)
    }

    @Test func aPathOtherThanKurentoIsClosedWithProtocolError() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let wrong = try await WebSocketConnection.connect(to: "ws://127.0.0.1:\(kms.port)/other")
        let info = try await withDeadline(.seconds(10), "the close") { await wrong.closeInfo }
        #expect(info.code == .protocolError)
        #expect(info.reason == "Invalid path")
        // The query string does not count.
        let right = try await RawKurentoClient.connect(kms.url + "?client=test")
        #expect(try await right.result("ping")["value"] as? String == "pong")
    }

    @Test func aHeldCreateRunsWhenReleasedAndHoldsItsSocketsLaterRequests() async throws {
        try await BlockingGate.withTurn {
            let kms = try KurentoMediaServerDouble()
            defer { kms.stop() }
            let gate = BlockingGate()
            kms.hold(methods: ["create"], until: gate)
            let slow = try await RawKurentoClient.connect(kms.url)
            try await slow.send(text: #"{"jsonrpc":"2.0","id":1,"method":"create","params":{"type":"MediaPipeline"}}"#)
            try await slow.send(text: #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
            try await waitUntil("the create held") { gate.isBlocking }
            // Other sockets go on; the object does not exist yet.
            let other = try await RawKurentoClient.connect(kms.url)
            #expect(try await other.invoke("manager_ServerManager", "getPipelines") as? [String] == [])
            #expect(slow.received.isEmpty)
            gate.open()
            try await waitUntil("both replies") { slow.received.count == 2 }
            #expect(slow.received.compactMap { RawKurentoClient.parse($0)?["id"] as? Int } == [1, 2])
            #expect(kms.liveObjectCount == 1)
        }
    }

    @Test func sendRawReachesEverySocketAndDroppedConnectionsKeepTheObjects() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let one = try await RawKurentoClient.connect(kms.url)
        let two = try await RawKurentoClient.connect(kms.url)
        _ = try await one.create("MediaPipeline")
        _ = try await two.result("ping")
        kms.sendRaw(#"{"jsonrpc":"2.0","method":"onEvent","params":{"value":{"type":"Unknown"}}}"#)
        for client in [one, two] {
            _ = try await client.first("the raw frame") { (($0["params"] as? JSON)?["value"] as? JSON)?["type"] as? String == "Unknown" }
        }
        kms.dropConnections()
        for client in [one, two] {
            let info = try await withDeadline(.seconds(10), "the cut") { await client.connection.closeInfo }
            #expect(info.code.rawValue == 1006)
        }
        #expect(kms.liveObjectCount == 1)
    }

    @Test func aPausedDoubleRefusesConnectionsUntilResumed() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        kms.pause()
        await #expect(throws: (any Error).self) { _ = try await WebSocketConnection.connect(to: kms.url) }
        try kms.resume()
        let client = try await RawKurentoClient.connect(kms.url)
        #expect(try await client.result("ping")["value"] as? String == "pong")
    }

    @Test func theExecutablePrintsItsURLFirstAndExitsZeroOnSIGTERM() async throws {
        let process = try ChildProcess("kms-double", ["--port", "0", "--gc-period", "0.5"])
        let line = try #require(try await process.nextLine())
        #expect(line.range(of: #"^ws://127\.0\.0\.1:\d+/kurento$"#, options: .regularExpression) != nil)
        let client = try await RawKurentoClient.connect(line)
        #expect(try await client.result("ping")["value"] as? String == "pong")
        process.send(SIGTERM)
        #expect(try await process.exitStatus() == 0)

        let bad = try ChildProcess("kms-double", ["--gc-period", "soon"])
        #expect(try await bad.exitStatus() == 2)
        let message = await bad.stderr
        #expect(message.split(separator: "\n").count == 1)
        #expect(message.hasPrefix("kms-double: "))
    }

    @Test func theExecutableAnswersStatsOnStdinWithWhatRanAndWhatIsLive() async throws {
        let process = try ChildProcess("kms-double", ["--port", "0"], writableInput: true)
        let url = try #require(try await process.nextLine())
        let client = try await RawKurentoClient.connect(url)
        let pipeline = try await client.create("MediaPipeline")
        let endpoint = try await client.create("PassThrough", ["mediaPipeline": pipeline])
        _ = try await client.result("subscribe", ["object": endpoint, "type": "ElementConnected"])
        try await client.invoke(endpoint, "connect", ["sink": endpoint, "mediaType": "AUDIO"])
        try process.write("stats\n")
        let line = try #require(try await process.nextLine())
        let stats = try JSONDecoder().decode(KurentoMediaServerDouble.Statistics.self, from: Data(line.utf8))
        #expect(stats.objects == 2 && stats.pipelines == 1 && stats.sessions == 1)
        #expect(stats.connections == 1 && stats.connectionsAccepted == 1)
        #expect(stats.methods == ["create": 2, "subscribe": 1, "invoke": 1])
        #expect(stats.operations == ["connect": 1] && stats.requests == 4)
        // The ElementConnected of the loop, sent before the answer to `stats` (events already raised are counted).
        #expect(stats.eventsSent == 1 && stats.replayedRequests == 0)
        try process.write("bogus\n")
        #expect(try await process.nextLine() == #"{"error":"unknown command bogus"}"#)
        process.send(SIGTERM)
        #expect(try await process.exitStatus() == 0)
    }
}
