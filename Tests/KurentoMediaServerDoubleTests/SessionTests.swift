import Foundation
import TestSupport
import Testing
import WebSocketTransport

/// Sessions: where they come from, their socket, `connect`, the garbage collector and restarts.
@Suite struct SessionTests {
    typealias JSON = RawKurentoClient.JSON

    @Test func theFirstRequestGetsAFreshSessionThatLaterRequestsOnItsSocketGetInjected() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let first = try await client.result("create", ["type": "MediaPipeline"])
        let session = try #require(first["sessionId"] as? String)
        #expect(session.range(of: #"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"#, options: .regularExpression) != nil)
        let second = try await client.result("create", ["type": "MediaPipeline"])
        #expect(second["sessionId"] as? String == session)
        #expect(kms.sessions == [session])
        // Another socket without a session gets a session of its own.
        let other = try await RawKurentoClient.connect(kms.url)
        let third = try await other.result("create", ["type": "MediaPipeline"])
        #expect(third["sessionId"] as? String != session)
        #expect(kms.sessions.count == 2)
    }

    @Test func connectWithoutParamsHandsOutASessionAndTheServerID() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let result = try await client.result("connect")
        #expect(result["serverId"] as? String == kms.serverId)
        let session = try #require(result["sessionId"] as? String)
        // The media set does not know it until an object is created or touched in it.
        #expect(kms.sessions.isEmpty)
        let fresh = try await RawKurentoClient.connect(kms.url)
        let error = try await fresh.error("connect", ["sessionId": session])
        #expect(error["code"] as? Int == 40007)
    }

    @Test func connectToAnUnknownSessionIsInvalidSession() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let reply = try await client.call("connect", ["sessionId": "4f5255d5-0000-0000-0000-000000000000"])
        #expect(reply["result"] == nil)
        let error = try #require(reply["error"] as? JSON)
        #expect(error["code"] as? Int == 40007)
        #expect(error["message"] as? String == "Invalid session")
        #expect(error["data"] as? [String: String] == ["type": "INVALID_SESSION"])
        #expect(!client.received.last!.contains("sessionId"))  // errors never carry one
        let keepAlive = try await client.error("keepAlive", ["sessionId": "unknown"])
        #expect(keepAlive["code"] as? Int == 40007)
    }

    @Test func eventsGoOnlyToTheSocketTiedToTheSubscribingSession() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let first = try await RawKurentoClient.connect(kms.url)
        _ = try await first.create("MediaPipeline")  // the session exists in the media set from now on
        let session = try #require(try await first.result("subscribe", [
            "object": "manager_ServerManager", "type": "ObjectCreated",
        ])["sessionId"] as? String)
        // A second socket takes the session over: the first one is no longer tied to it.
        let second = try await RawKurentoClient.connect(kms.url)
        #expect(try await second.result("connect", ["sessionId": session])["sessionId"] as? String == session)
        let creator = try await RawKurentoClient.connect(kms.url)
        let one = try await creator.create("MediaPipeline")
        try await second.awaitEvents("ObjectCreated")
        // The first socket takes it back; a second creation's event comes to it, and the first event never did
        // (the events go out in order on one queue, so it would have come before).
        _ = try await first.result("connect", ["sessionId": session])
        let two = try await creator.create("MediaPipeline")
        let events = try await first.awaitEvents("ObjectCreated")
        #expect(events.count == 1)
        #expect((events[0]["data"] as? JSON)?["object"] as? String == two)
        #expect(second.events("ObjectCreated").map { ($0["data"] as? JSON)?["object"] as? String } == [one])
    }

    @Test func aReconnectionWithinTheCollectorsPeriodKeepsTheObjectsAndOneAfterFindsThemGone() async throws {
        let kms = try KurentoMediaServerDouble(configuration: .init(garbageCollectorPeriod: .seconds(3600)))
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await client.create("MediaPipeline")
        let session = try #require(kms.sessions.first)
        kms.dropConnections()
        await kms.collectGarbage()  // one period without the socket: the session is only marked
        let back = try await RawKurentoClient.connect(kms.url)
        let resumed = try await back.result("connect", ["sessionId": session])
        #expect(resumed["serverId"] as? String == kms.serverId)
        #expect(kms.liveObjectCount == 1)
        #expect(try await back.invoke(pipeline, "getChildren") as? [String] == [])
        // Gone again for two periods: the session and its objects are collected.
        kms.dropConnections()
        await kms.collectGarbage()
        await kms.collectGarbage()
        #expect(kms.liveObjectCount == 0)
        #expect(kms.sessions.isEmpty)
        let late = try await RawKurentoClient.connect(kms.url)
        #expect(try await late.error("connect", ["sessionId": session])["code"] as? Int == 40007)
        let gone = try await late.error("invoke", ["object": pipeline, "operation": "getChildren"])
        #expect(gone["code"] as? Int == 40101)
    }

    @Test func aCollectedSessionLosesOnlyItsReferencesAndSubscriptions() async throws {
        let kms = try KurentoMediaServerDouble(configuration: .init(garbageCollectorPeriod: .seconds(3600)))
        defer { kms.stop() }
        let owner = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await owner.create("MediaPipeline")
        // Another session touches the pipeline (so references it) and subscribes to it, then goes away.
        let visitor = try await RawKurentoClient.connect(kms.url)
        _ = try await visitor.result("subscribe", ["object": pipeline, "type": "Error"])
        #expect(kms.sessions.count == 2)
        await visitor.close()
        try await waitUntil("the visitor's socket gone") { kms.connectionCount == 1 }
        await kms.collectGarbage()
        await kms.collectGarbage()
        #expect(kms.sessions.count == 1)
        #expect(kms.pipelines == [pipeline])  // still referenced by the owner's session
        #expect(kms.subscriptionCount == 0)
    }

    @Test func theCollectorsTimerCollectsAbandonedSessionsAndKeepsConnectedOnes() async throws {
        let kms = try KurentoMediaServerDouble(configuration: .init(garbageCollectorPeriod: .milliseconds(100)))
        defer { kms.stop() }
        let kept = try await RawKurentoClient.connect(kms.url)
        let keptPipeline = try await kept.create("MediaPipeline")
        let dropped = try await RawKurentoClient.connect(kms.url)
        _ = try await dropped.create("MediaPipeline")
        await dropped.close()
        try await waitUntil("the abandoned session collected") { kms.liveObjectCount == 1 }
        let ticks = kms.collectionCount
        try await waitUntil("three more collections") { kms.collectionCount >= ticks + 3 }
        #expect(kms.pipelines == [keptPipeline])
        #expect(try await kept.invoke(keptPipeline, "getChildren") as? [String] == [])
    }

    @Test func aRestartDropsEverythingAndHasANewServerID() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let before = try #require(try await client.result("connect")["serverId"] as? String)
        _ = try await client.create("MediaPipeline")
        let session = try #require(kms.sessions.first)
        await kms.restart()
        let info = try await withDeadline(.seconds(10), "the cut") { await client.connection.closeInfo }
        #expect(info.code.rawValue == 1006)  // no close frame
        #expect(kms.liveObjectCount == 0)
        let again = try await RawKurentoClient.connect(kms.url)
        #expect(try await again.error("connect", ["sessionId": session])["code"] as? Int == 40007)
        let after = try #require(try await again.result("connect")["serverId"] as? String)
        #expect(after != before)
        #expect(after == kms.serverId)
    }

    @Test func closeSessionReleasesOrUnrefsAndAnswersNull() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        _ = try await client.create("MediaPipeline")
        let session = try #require(kms.sessions.first)
        let reply = try await client.call("closeSession", ["sessionId": session, "release": true])
        #expect(reply["result"] is NSNull)
        #expect(kms.liveObjectCount == 0)
        #expect(kms.sessions.isEmpty)
    }
}
