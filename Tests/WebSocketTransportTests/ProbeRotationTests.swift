@testable import WebSocketTransport
import TestSupport
import Testing

/// ``ProbeRotation``: a probe round past ``ConnectionLimits/rttProbeLimit`` pings a rotating share
/// (docs/libwebsockets.md#round-trip-probe).
@Suite struct ProbeRotationTests {
    @Test(arguments: [(10_000, 1000), (10, 3), (7, 7), (8, 7), (1, 1000), (0, 1000), (5, 0)])
    func overOnePassEachProbedConnectionIsPingedOnceAndNoRoundExceedsTheLimit(count: Int, limit: Int) {
        let first = ProbeRotation(count: count, limit: limit, round: 0)
        var pinged = [Int](repeating: 0, count: count)
        for round in 0..<first.stride {
            let rotation = ProbeRotation(count: count, limit: limit, round: round)
            let chosen = (0..<count).filter { rotation.includes(index: $0, probed: true) }
            #expect(chosen.count <= max(1, limit))
            for index in chosen { pinged[index] += 1 }
        }
        #expect(pinged.allSatisfy { $0 == 1 })
    }

    @Test func atOrBelowTheLimitEveryRoundPingsEveryone() {
        let rotation = ProbeRotation(count: 1000, limit: 1000, round: 7)
        #expect(rotation.stride == 1)
        #expect((0..<1000).allSatisfy { rotation.includes(index: $0, probed: true) })
    }

    @Test func aConnectionNotProbedYetIsPingedInAnyRound() {
        let rotation = ProbeRotation(count: 10_000, limit: 1000, round: 3)
        #expect(rotation.stride == 10)
        #expect(!rotation.includes(index: 4, probed: true))
        #expect(rotation.includes(index: 4, probed: false))
    }

    @Test func connectionsPastTheLimitAreAllMeasuredAgain() async throws {
        // Given a server that probes every 30 ms but at most 2 connections a round, and 6 connections
        var configuration = WebSocketServerConfiguration()
        configuration.limits.rttProbeInterval = .milliseconds(30)
        configuration.limits.rttProbeLimit = 2
        let server = try await WebSocketServer.start(configuration)
        var clients: [WebSocketConnection] = []
        for _ in 0..<6 { clients.append(try await WebSocketConnection.connect(to: server.url + "/rtt")) }
        var opened: [WebSocketConnection] = []
        for _ in 0..<6 { opened.append(try await firstConnection(server)) }
        let accepted = opened

        // When each has a first round-trip time (the round after it opened pings it, whatever the limit)
        try await waitUntil("every connection measured") { accepted.allSatisfy { $0.roundTripTime != nil } }
        let first = accepted.map(\.roundTripTime)

        // Then the rotation measures every one of them again
        try await waitUntil("every connection measured again") {
            zip(accepted, first).allSatisfy { $0.roundTripTime != $1 }
        }
        for client in clients { await client.close() }
        await server.shutdown()
    }
}
