import JSONRPC
import RoomClusterCore
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// RoomServer knows its cluster only as a ``ClusterBackplane`` (RoomClusterCore): a backplane that is not Redis, here
/// an in-memory one that records what the server asks of it, is enough to serve a room with another node's members.
struct ClusterBackplaneFakeTests {
    @Test func aRoomIsServedAcrossABackplaneThatIsNotRedis() async throws {
        // Given a server whose cluster is an in-memory backplane that lists bob of node b in room1
        let backplane = InMemoryBackplane(nodeID: "a", members: ["room1": [ClusterMember(user: "bob", node: "b",
                                                                                          publishing: false)]])
        let server = try await RoomServer.start(.init(cluster: InMemoryBackplane.Configuration(backplane: backplane)))
        #expect(backplane.started.withLock { $0 })
        let alice = try await RoomPeer.dialing(server.url)

        // When alice joins room1
        let existing = try await alice.join("alice")

        // Then her name was claimed through the backplane, bob is listed, and her arrival went to the other nodes
        #expect(backplane.claims.withLock { $0 } == ["room1/alice"])
        #expect(existing.arrayValue?.compactMap { $0["id"]?.stringValue } == ["bob"])
        #expect(try await backplane.posts.next() == "participantJoined room1 alice ")

        // When bob's node sends a chat message, and alice sends one
        backplane.deliver(ClusterEvent(origin: "b", room: "room1", sequence: 1, kind: "sendMessage", user: "bob",
                                       payload: "hi alice"))
        let heard = try await alice.notification("sendMessage")
        _ = try await alice.result("sendMessage", ["message": "hi bob", "userMessage": "alice", "roomMessage": "room1"])

        // Then alice hears bob's, and hers goes to the other nodes
        #expect(heard["user"] == "bob")
        #expect(heard["message"] == "hi alice")
        #expect(try await backplane.posts.next() == "sendMessage room1 alice hi bob")

        // When alice leaves
        _ = try await alice.result("leaveRoom")

        // Then the other nodes are told and her name is released
        #expect(try await backplane.posts.next() == "participantLeft room1 alice ")
        #expect(try await backplane.releases.next() == "room1/alice")

        // And shutting the server down stops the backplane
        await server.shutdown()
        #expect(backplane.stopped.withLock { $0 })
    }
}

/// A cluster of one node's view, in memory: the members it is given, and a record of the claims, releases and
/// events the server sends. Media and shared objects are not part of it (they answer "unavailable").
final class InMemoryBackplane: ClusterBackplane {
    /// Makes the server use `backplane`.
    struct Configuration: ClusterBackplaneConfiguration {
        let backplane: InMemoryBackplane
        func makeBackplane(_ context: ClusterBackplaneContext) -> any ClusterBackplane { backplane }
    }

    let nodeID: String
    let events: AsyncStream<ClusterIncoming>
    private let continuation: AsyncStream<ClusterIncoming>.Continuation
    private let members: [String: [ClusterMember]]
    let started = LockedValue(false)
    let stopped = LockedValue(false)
    /// `room/user` of each claim and release, in order.
    let claims = LockedValue<[String]>([])
    let releases = Arrivals<String>("names released")
    /// Each event posted, as `kind room user payload`.
    let posts = Arrivals<String>("events posted")

    init(nodeID: String, members: [String: [ClusterMember]]) {
        self.nodeID = nodeID
        self.members = members
        (events, continuation) = AsyncStream.makeStream()
    }

    /// Hands the server an event of another node.
    func deliver(_ event: ClusterEvent) { continuation.yield(.event(event)) }

    var isRecovering: Bool { false }
    func start() async throws(ClusterError) { started.withLock { $0 = true } }
    func stop() async {
        stopped.withLock { $0 = true }
        continuation.finish()
    }

    func claim(user: String, room: String) async throws(ClusterError) -> Bool {
        claims.withLock { $0.append("\(room)/\(user)") }
        return true
    }

    func release(user: String, room: String) async throws(ClusterError) {
        releases.append("\(room)/\(user)")
    }

    func setPublishing(_ publishing: Bool, user: String, room: String) async throws(ClusterError) {}

    func members(of room: String) async throws(ClusterError) -> [ClusterMember] {
        (members[room] ?? []) + claims.withLock { $0 }.filter { $0.hasPrefix(room + "/") }
            .map { ClusterMember(user: String($0.dropFirst(room.count + 1)), node: nodeID, publishing: false) }
    }

    func post(_ kind: String, room: String, user: String, payload: String) -> Bool {
        posts.append("\(kind) \(room) \(user) \(payload)")
        return true
    }

    private static let absent = ClusterError.unavailable("not in the in-memory backplane")
    func joinMedia(_ scope: String) async throws(ClusterError) -> ClusterPipelineRecord? { throw Self.absent }
    func claimMedia(_ scope: String, pipeline: ClusterPipelineRecord) async throws(ClusterError)
        -> ClusterPipelineRecord { throw Self.absent }
    func leaveMedia(_ scope: String) async throws(ClusterError) -> ClusterPipelineRecord? { throw Self.absent }
    func forgetMedia(_ scope: String, pipeline id: String) async throws(ClusterError) { throw Self.absent }
    func setPublisherEndpoint(_ id: String, user: String, scope: String) async throws(ClusterError) {
        throw Self.absent
    }
    func publisherEndpoint(user: String, scope: String) async throws(ClusterError) -> String? { throw Self.absent }
    func removePublisherEndpoint(_ id: String, user: String, scope: String) async throws(ClusterError) {
        throw Self.absent
    }
    func openObject(_ name: String, persistent: Bool, createsPersistent: Bool, maxObjects: Int?, maxBytes: Int?)
        async throws(ClusterError) -> ClusterObjectOpening { throw Self.absent }
    func registerObject(_ name: String, record: ClusterObjectRecord, clients: Int) async throws(ClusterError)
        -> ClusterObjectRecord { throw Self.absent }
    func setObject(_ name: String, changes: [(key: String, text: String?)], maxBytes: Int, maxTotalBytes: Int?,
                   sender: String?) async throws(ClusterError) -> ClusterObjectChange { throw Self.absent }
    func countObjectClients(_ name: String, delta: Int) {}

    func makeSnapshotStore() -> any ClusterSnapshotStore { NoSnapshots() }

    /// Keeps no snapshot: the operations view shows this node's participants only.
    struct NoSnapshots: ClusterSnapshotStore {
        var interval: Duration { .seconds(3600) }
        var lifetime: Duration { .seconds(3600) }
        func write(_ text: String) async throws(ClusterError) {}
        func others() async throws(ClusterError) -> [String: String] { [:] }
        func remove() async {}
    }
}
