import Foundation
import RoomClusterCore
import SignalingSupport
import TestSupport
import Testing
@testable import RoomCluster

/// A server that falls behind its node's events (issue 33, item 3): the node holds at most its capacity, and the
/// loss is an outage (unavailable, then restored) so that the server resynchronizes.
@Suite(.enabled(if: redisTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterNodeBacklogTests {
    @Test func aServerThatFallsBehindGetsTheCapacityThenAnOutage() async throws {
        // Given a started node holding at most 100 events, whose server does not read them
        let fixture = try await RedisFaultFixture()
        var configuration = ClusterConfiguration(redis: fixture.direct, nodeID: "a",
                                                 heartbeatInterval: .milliseconds(100))
        configuration.eventCapacity = 100
        let node = ClusterNode(configuration: configuration)
        try await node.start()

        // When another node sends 1,000 events
        let publisher = RedisConnection(url: fixture.direct)
        _ = try await publisher.command(
            "EVAL", """
                for i = 1, tonumber(ARGV[1]) do
                  redis.call('PUBLISH', KEYS[1], '{"origin":"b","room":"demo","sequence":' .. i ..
                    ',"kind":"k","user":"bob","payload":""}')
                end
                """, "1", "ks:room:demo", "1000")

        // Then the node begins an outage
        try await waitUntil("an outage") { node.state.withLock { $0.outage } != nil }

        // and the server, reading again, gets at most the capacity (and one held in the room kept for the outage),
        // the oldest first, then unavailable, then restored
        let heard = Arrivals("node a", of: node.events)
        var events = 0
        while case .event(let event) = try await heard.next() {
            events += 1
            #expect(event.sequence == UInt64(events))
        }
        #expect(events <= 101, "\(events) events held")
        guard case .unavailable = heard.all.last else { Issue.record("expected unavailable"); return }
        #expect(try await heard.next() == .restored)

        // and events flow again
        _ = try await publisher.command(
            "PUBLISH", "ks:room:demo", #"{"origin":"b","room":"demo","sequence":1001,"kind":"k","user":"bob","payload":""}"#)
        guard case .event(let after) = try await heard.next() else { Issue.record("expected an event"); return }
        #expect(after.sequence == 1001)
        node.halt()
        await fixture.server.stop()
    }
}
