import Foundation
import RoomClient
import RoomCluster
import RoomServer
import TestSupport
import Testing

/// A node killed with SIGKILL, again and again, its members joined in every order: the members of the survivor
/// always hear each of the dead node's participants leave, within 10 s (docs/architecture.md#cluster, the sweep).
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterKillTests {
    /// The four members of a round, on the survivor (`a…`) and on the node that is killed (`b…`).
    static let names = ["a1", "a2", "b1", "b2"]

    /// The `round`-th of the 24 orders of ``names``.
    static func order(_ round: Int) -> [String] {
        var pool = names, order: [String] = [], rest = round
        for size in stride(from: pool.count, to: 0, by: -1) {
            order.append(pool.remove(at: rest % size))
            rest /= size
        }
        return order
    }

    @Test func everySurvivorHearsEachParticipantOfAKilledNodeLeaveWithin10s() async throws {
        // Given a survivor in this process and, in each round, a room-server process, both taking a node for dead
        // after 1 s
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        let survivor = try await RoomServer.start(.init(cluster: ClusterConfiguration(
            redis: url, nodeID: "survivor", heartbeatInterval: .milliseconds(200), nodeTimeout: .seconds(1) * deadlineScale)))
        for round in 0..<50 {
            let victim = try ChildProcess("room-server", ["--port", "0", "--cluster", redis.url, "--node-id", "victim\(round)",
                                                          "--node-timeout", "\(deadlineScale)"])
            let victimURL = try #require(try await victim.nextLine())
            let room = "kill\(round)"

            // When a1, a2 (survivor) and b1, b2 (victim) join in this round's order, each once the one before joined
            var members: [String: Member] = [:]
            for name in Self.order(round) {
                let member = name.hasPrefix("a") ? Member(name, room: room, at: survivor) : Member(name, room: room, url: victimURL)
                _ = try await member.join()
                members[name] = member
            }
            // (each survivor member knows b1 and b2: by its join's list or a participantJoined)
            for name in ["a1", "a2"] {
                let member = members[name]!
                try await waitUntil("\(name) to know b1 and b2 in round \(round)") {
                    let known = Set(member.client.peers.map(\.identifier))
                    return known.isSuperset(of: ["b1", "b2"])
                }
            }

            // And the victim is killed with SIGKILL
            victim.send(SIGKILL)
            _ = try await victim.exitStatus()

            // Then a1 and a2 each hear b1 and b2 leave, within 10 s
            for name in ["a1", "a2"] {
                let member = members[name]!
                let left = try await withDeadline(.seconds(10), "\(name) to hear b1 and b2 leave in round \(round)") {
                    var left: Set<String> = []
                    while left.count < 2 {
                        if case .participantLeft(let peer) = try await member.next() { left.insert(peer.identifier) }
                    }
                    return left
                }
                #expect(left == ["b1", "b2"], "round \(round): \(name)")
            }
            for name in ["a1", "a2"] { try await members[name]!.client.leave() }
        }
        await survivor.shutdown()
        await redis.stop()
    }
}
