import JSONRPC
import RoomClient
import RoomCluster
import RoomServer
import TestSupport
import Testing

/// Issue 33 item 6: the admin view is the cluster's. `/rooms` (and the dashboard's snapshots) list every node's rooms
/// and participants with the node that holds each, rooms without a member here included; `RoomServer.events` tells
/// of the participants of other nodes in the rooms this node has members in.
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterAdminViewTests {
    static let token = "t-0123456789abcdef"

    /// node 0's `/rooms` as JSON.
    static func rooms(of node: RoomServer) async throws -> JSONValue {
        let port = try #require(RawHTTPClient.port(of: node.url))
        return try JSONValue(parsing: try await RawHTTPClient.get(port: port, "/rooms",
                                                                    headers: ["Authorization": "Bearer \(token)"]).text)
    }

    /// Each room of a snapshot and its participants as `name@node`.
    static func listing(_ snapshot: OperationsSnapshot) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: snapshot.rooms.map { room in
            (room.name, room.participants.map { "\($0.name)@\($0.node ?? "-")" })
        })
    }

    @Test func anotherNodesMembersShowInRoomsAndEventsUntilTheyLeaveOrTheirNodeDies() async throws {
        let cluster = try await Cluster.start(nodes: 2, operations: .init(adminToken: Self.token))
        let events = Arrivals("node0's events", of: cluster.nodes[0].events)

        // Given alice on node 0 in demo; bob publishing and dave on node 1 in demo; carol on node 1 alone in lobby
        let alice = Member("alice", at: cluster.nodes[0])
        _ = try await alice.join()
        #expect(try await events.next() == .roomCreated(room: "demo"))
        #expect(try await events.next() == .participantJoined(room: "demo", user: "alice"))
        let bob = Member("bob", at: cluster.nodes[1]), dave = Member("dave", at: cluster.nodes[1])
        let carol = Member("carol", room: "lobby", at: cluster.nodes[1])
        _ = try await bob.join()
        try await bob.publish()
        _ = try await dave.join()
        _ = try await carol.join()

        // Then node 0's events tell of bob (and his stream) and dave, as node 1's participants
        #expect(try await events.next() == .participantJoined(room: "demo", user: "bob"))
        #expect(try await events.next() == .participantPublished(room: "demo", user: "bob"))
        #expect(try await events.next() == .participantJoined(room: "demo", user: "dave"))
        #expect(cluster.nodes[0].node(of: "bob", in: "demo") == "node1")
        #expect(cluster.nodes[0].node(of: "alice", in: "demo") == "node0")

        // And node 0's /rooms lists every node's rooms, lobby too, with the node of each participant
        let everyone = ["demo": ["alice@node0", "bob@node1", "dave@node1"], "lobby": ["carol@node1"]]
        try await waitUntil("node0's snapshot to list every node's participants") {
            Self.listing(cluster.nodes[0].operationsSnapshot()) == everyone
        }
        let json = try await Self.rooms(of: cluster.nodes[0])
        #expect(json["node"] == "node0")
        #expect(json["rooms"]?.arrayValue?.map { $0["name"] } == ["demo", "lobby"])
        let demo = try #require(json["rooms"]?[0]?["participants"]?.arrayValue)
        #expect(demo.map { $0["name"] } == ["alice", "bob", "dave"])
        #expect(demo.map { $0["node"] } == ["node0", "node1", "node1"])
        #expect(demo.map { $0["remote"] } == [false, true, true])
        #expect(demo.map { $0["streams"] } == [[], ["webcam"], []])
        // (what node 1 knows of its own members: their connection)
        #expect(demo.map { $0["connected"] } == [true, true, true])
        let lobby = try #require(json["rooms"]?[1]?["participants"]?.arrayValue)
        #expect(lobby.map { $0["name"] } == ["carol"] && lobby.map { $0["node"] } == ["node1"])
        #expect(json["totals"]?["participants"] == 4 && json["totals"]?["streams"] == 1)

        // When bob leaves, node 0's events say so, and its /rooms no longer lists him
        try await bob.client.leave()
        #expect(try await events.next() == .participantUnpublished(room: "demo", user: "bob"))
        #expect(try await events.next() == .participantLeft(room: "demo", user: "bob", departure: .left))
        try await waitUntil("node0's snapshot to drop bob") {
            Self.listing(cluster.nodes[0].operationsSnapshot()) == ["demo": ["alice@node0", "dave@node1"],
                                                                    "lobby": ["carol@node1"]]
        }

        // When node 1 dies without a goodbye, its participants leave node 0's events and /rooms after its sweep
        try #require(cluster.nodes[1].cluster as? ClusterNode).halt()
        #expect(try await events.next() == .participantLeft(room: "demo", user: "dave", departure: .evicted))
        try await waitUntil("node0's snapshot to drop node1's participants") {
            Self.listing(cluster.nodes[0].operationsSnapshot()) == ["demo": ["alice@node0"]]
        }
        let after = try await Self.rooms(of: cluster.nodes[0])
        #expect(after["rooms"]?.arrayValue?.map { $0["name"] } == ["demo"])
        #expect(after["rooms"]?[0]?["participants"]?.arrayValue?.map { $0["name"] } == ["alice"])
        #expect(cluster.nodes[0].node(of: "dave", in: "demo") == nil)
        await cluster.stop()
    }
}
