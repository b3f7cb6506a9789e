import Foundation
import JSONRPC
import RoomClient
import RoomProtocol
import RoomServer
import TestSupport
import Testing

/// `room-join --publish` recovers from a server restart on its own: it rejoins and republishes through
/// RoomClient's offer provider.
@Suite(.serialized)
struct RoomJoinRecoveryTests {
    /// `child`'s stdout lines up to and including the first one for which `predicate` holds.
    static func lines(of child: ChildProcess, until predicate: (String) -> Bool) async throws -> [String] {
        var seen: [String] = []
        while let line = try await child.nextLine() {
            seen.append(line)
            if predicate(line) { return seen }
        }
        Issue.record("room-join ended before the expected line; stdout: \(seen)")
        return seen
    }

    @Test func roomJoinPublishRejoinsAndRepublishesAfterAServerRestart() async throws {
        // Given room-join publishing in a room, through a proxy, and subscribed to bob's stream
        let first = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        let proxy = try FaultProxy(targetPort: RoomRecoveryTests.port(of: first.url))
        defer { proxy.stop() }
        let earlierBob = RoomClient(room: Room(username: "bob", roomName: "r", url: first.url),
                                    configuration: .init(reconnect: .off, heartbeat: .off))
        try await earlierBob.join()
        _ = try await earlierBob.publishVideo(sdpOffer: try await RecoveringMedia().provider.offer(.publisher))
        let roomJoin = try ChildProcess("room-join", [proxy.url(path: "/room"), "--room", "r", "--user", "alice",
                                                      "--publish", "--receive-all", "--json"])
        _ = try await Self.lines(of: roomJoin) { $0.contains(#""event":"subscribed""#) }

        // When the server is replaced by one that knows nothing, and the connection drops
        let second = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        proxy.retarget(port: RoomRecoveryTests.port(of: second.url))
        proxy.cutAll()

        // Then room-join reports the rejoin, then what it restored (its published stream; bob's stream went with the
        // old server), and a newcomer on the new server sees alice publishing
        let lines = try await Self.lines(of: roomJoin) { $0.contains(#""event":"restored""#) }
        #expect(lines.contains { $0.contains(#""state":"reconnecting""#) })
        let rejoined = lines.firstIndex { $0.contains(#""state":"rejoined""#) }
        #expect(rejoined != nil && rejoined! < lines.count - 1, "\(lines)")
        #expect(CLIEventLine.withoutTime(lines.last ?? "") == #"{"event":"restored"}"#, "\(lines)")
        let bob = RoomClient(room: Room(username: "bob", roomName: "r", url: second.url),
                             configuration: .init(reconnect: .off, heartbeat: .off))
        try await bob.join()
        try await waitUntil("alice to publish again") { bob.peer(withIdentifier: "alice")?.isPublishing == true }
        #expect(bob.peers == [Peer(identifier: "alice", streams: ["webcam"])])
        // And when bob publishes there, room-join subscribes to him again (the old subscription went with the server)
        _ = try await bob.publishVideo(sdpOffer: try await RecoveringMedia().provider.offer(.publisher))
        let later = try await Self.lines(of: roomJoin) { $0.contains(#""event":"subscribed""#) }

        // And it leaves cleanly on SIGINT, having printed no error and no request to renegotiate by hand
        roomJoin.send(SIGINT)
        #expect(try await roomJoin.exitStatus() == 130)
        let rest = later + (await roomJoin.remainingLines())
        #expect(!(lines + rest).contains { $0.contains(#""event":"error""#) || $0.contains("renegotiationNeeded") })
        // And every line, the reconnection states included, is valid against Schemas/cli-events.schema.json
        if SchemaValidation.mustRun {
            let cases = (lines + rest).enumerated().map { index, line in
                SchemaValidation.Case(label: "line \(index): \(line)", schema: "Schemas/cli-events.schema.json",
                                      instanceJSON: line)
            }
            for verdict in try SchemaValidation.validate(cases) { #expect(verdict.valid, "\(verdict.label): \(verdict.errors)") }
        }
        await bob.disconnect()
        await earlierBob.disconnect()
        await first.shutdown()
        await second.shutdown()
    }
}
