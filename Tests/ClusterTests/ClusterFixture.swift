import Foundation
import JSONRPC
import PeerManager
import RoomClient
import RoomCluster
import RoomProtocol
import SDP
import RoomServer
import RoomTestSupport
import SharedObjectServer
import SharedObjects
import SignalingSupport
import TestSupport
import Testing

/// Whether the cluster tests run: redis-server is installed, or this is CI (where its absence is a failure).
let clusterTestsRun = RedisServerProcess.executable != nil || isCI

/// A Redis and room-server nodes on it, in this process (a heartbeat every 100 ms, dead after 3 s; both
/// stretched for sanitizer runs).
struct Cluster {
    let redis: RedisServerProcess
    let nodes: [RoomServer]
    /// With `proxied`: node i reaches Redis through `proxies[i]` (its own faults: a black hole, a reset, a delay).
    var proxies: [FaultProxy] = []

    /// `heartbeats[i]`, when given, is node i's heartbeat interval (its timeout: four of them, at least 3 s).
    /// `media(i)` is node i's media backend (default: simulated).
    /// `sharedObjects` configures every node's shared objects, `operations` every node's operations endpoints.
    /// `proxied`: each node reaches Redis through a ``FaultProxy`` of its own.
    static func start(nodes count: Int, heartbeats: [Duration] = [],
                      media: (Int) -> any MediaBackend = { _ in SimulatedMediaBackend() },
                      sharedObjects: SharedObjectService.Configuration = .init(),
                      operations: OperationsConfiguration = .init(), limits: RoomServerLimits = .init(),
                      proxied: Bool = false) async throws -> Cluster {
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        var nodes: [RoomServer] = [], proxies: [FaultProxy] = []
        for index in 0..<count {
            let heartbeat = index < heartbeats.count ? heartbeats[index] : .milliseconds(100)
            var nodeURL = url
            if proxied {
                let proxy = try FaultProxy(targetPort: url.port)
                proxies.append(proxy)
                nodeURL.port = proxy.port
            }
            let cluster = ClusterConfiguration(
                redis: nodeURL, nodeID: "node\(index)", heartbeatInterval: heartbeat,
                nodeTimeout: max(heartbeat * 4, .seconds(3)) * deadlineScale,
                timeout: .seconds(2) * deadlineScale)
            nodes.append(try await RoomServer.start(.init(media: media(index), limits: limits,
                                                          sharedObjects: sharedObjects, cluster: cluster,
                                                          operations: operations)))
        }
        return Cluster(redis: redis, nodes: nodes, proxies: proxies)
    }

    /// alice on node 0 and bob on node 1, both joined to room demo.
    func aliceAndBob() async throws -> (alice: Member, bob: Member) {
        let alice = Member("alice", at: nodes[0]), bob = Member("bob", at: nodes[1])
        _ = try await alice.join()
        _ = try await bob.join()
        return (alice, bob)
    }

    func stop() async {
        for proxy in proxies { proxy.resume(); for direction in FaultProxy.Direction.allCases { proxy.endBlackHole(direction) } }
        for node in nodes { await node.shutdown() }
        for proxy in proxies { proxy.stop() }
        await redis.stop()
    }
}

/// A room client that keeps every room event it receives but connection states and ICE candidates (the tests read
/// what the room says), read one at a time with a deadline.
final class Member: Sendable {
    private let user: RoomTestClient
    var name: String { user.name }
    var client: RoomClient { user.client }
    /// The shared objects of the room client's connection (one per connection).
    let shared: SharedObjectClient

    convenience init(_ name: String, room: String = "demo", at node: RoomServer, failover: [String] = []) {
        self.init(name, room: room, url: node.url, failover: failover)
    }

    init(_ name: String, room: String = "demo", url: String, failover: [String] = []) {
        user = RoomTestClient(name, room: room, url: url, configuration: .init(failoverURLs: failover)) { event in
            switch event {
            case .connectionStateChanged, .iceCandidate: false
            default: true
            }
        }
        shared = SharedObjectClient(client: user.client.jsonRPCClient)
    }

    /// Connects and joins; the names of the participants already there.
    func join() async throws -> [String] { try await user.join().map(\.identifier).sorted() }

    /// The next room event.
    func next() async throws -> RoomEvent { try await user.events.next() }

    /// The next room event that is neither a chat message nor a join.
    func nextSkippingChatAndJoins() async throws -> RoomEvent {
        while true {
            let event = try await next()
            switch event {
            case .message, .participantJoined: continue
            default: return event
            }
        }
    }

    /// Publishes a send-only offer from PeerManager.
    func publish() async throws {
        let media = PeerManager()
        let offer = try await media.generateOffer(for: name, media: .audioVideo(direction: .sendonly))
        _ = try await client.publishVideo(sdpOffer: offer)
    }

    /// Subscribes to `publisher` with a receive-only offer from PeerManager; returns the answer.
    @discardableResult
    func subscribe(to publisher: String) async throws -> String {
        let media = PeerManager()
        let offer = try await media.generateOffer(for: publisher, media: .audioVideo(direction: .recvonly))
        return try await client.receiveVideo(from: Peer(identifier: publisher, streams: [RoomNaming.defaultStreamId]),
                                             sdpOffer: offer)
    }
}
