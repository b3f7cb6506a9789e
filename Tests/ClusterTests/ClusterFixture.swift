import Foundation
import JSONRPC
import PeerManager
import RoomClient
import RoomCluster
import RoomProtocol
import SDP
import RoomServer
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

    /// `heartbeats[i]`, when given, is node i's heartbeat interval (its timeout: four of them, at least 3 s).
    static func start(nodes count: Int, heartbeats: [Duration] = []) async throws -> Cluster {
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        var nodes: [RoomServer] = []
        for index in 0..<count {
            let heartbeat = index < heartbeats.count ? heartbeats[index] : .milliseconds(100)
            let cluster = ClusterConfiguration(
                redis: url, nodeID: "node\(index)", heartbeatInterval: heartbeat,
                nodeTimeout: max(heartbeat * 4, .seconds(3)) * deadlineScale,
                timeout: .seconds(2) * deadlineScale)
            nodes.append(try await RoomServer.start(.init(cluster: cluster)))
        }
        return Cluster(redis: redis, nodes: nodes)
    }

    func stop() async {
        for node in nodes { await node.shutdown() }
        await redis.stop()
    }
}

/// A room client that keeps every room event it receives, read one at a time with a deadline.
final class Member: Sendable {
    let name: String
    let client: RoomClient
    private let inbox = LockedBox<[ClientEvent]>([])
    private let cursor = LockedBox(0)

    convenience init(_ name: String, room: String = "demo", at node: RoomServer, failover: [String] = []) {
        self.init(name, room: room, url: node.url, failover: failover)
    }

    init(_ name: String, room: String = "demo", url: String, failover: [String] = []) {
        self.name = name
        client = RoomClient(room: Room(username: name, roomName: room, url: url),
                            configuration: .init(failoverURLs: failover))
        let events = client.events
        Task { [inbox] in
            do {
                for try await event in events {
                    if case .connectionStateChanged = event { continue }
                    if case .iceCandidate = event { continue }
                    inbox.mutate { $0.append(event) }
                }
            } catch {}
        }
    }

    /// Connects and joins; the names of the participants already there.
    func join() async throws -> [String] {
        try await client.connect()
        return try await client.join().map(\.identifier).sorted()
    }

    /// The next room event.
    func next() async throws -> ClientEvent {
        let index = cursor.value
        try await waitUntil("\(name): room event \(index)") { self.inbox.value.count > index }
        cursor.mutate { $0 += 1 }
        return inbox.value[index]
    }

    /// The next room event that is neither a chat message nor a join.
    func nextSkippingChatAndJoins() async throws -> ClientEvent {
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
}
