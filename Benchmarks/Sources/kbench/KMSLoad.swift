import Foundation
import PeerManager
import RoomClient
import SDP

/// Row 8: `clients` RoomClients in this one process against `room-server --kms` in another, whose media is in
/// `kms-double` in a third. Ten clients a room (`clients / 10` rooms); in each room the first two publish and every
/// other member subscribes to each of them, with PeerManager offers (send-only to publish, receive-only to subscribe)
/// whose answers PeerManager then applies.
///
/// 1. Join storm: every client joins at once; from the first call to the last result.
/// 2. Publish storm: every publisher publishes at once; each `publishVideo`'s latency, from the call to the answer.
/// 3. Subscribe storm: every subscription at once; each `receiveVideoFrom`'s latency.
/// 4. Everyone leaves; the double must then hold no object.
///
/// The double's counters (``KMSStatistics``) are read before and after each phase: requests from room-server to KMS
/// (by method and `invoke` operation) and events from KMS to room-server, per join, per publish and per subscription;
/// and its WebSocket connections, of which there should be exactly one, room-server's.
enum KMSLoad {
    static let roomSize = 10
    static let publishersPerRoom = 2

    /// One phase's calls: how many failed, the latencies of the others, and the phase's wall time.
    struct Phase {
        var failures: [String] = []
        var latencies = Samples()
        var seconds = 0.0
    }

    static func run(url: String, serverPID: Int32, kmsPID: Int32, clients count: Int) async throws -> [String: Any] {
        let clock = ContinuousClock()
        let rooms = max(1, count / roomSize)
        let cpuBefore = (ProcessStats.cpuSeconds(serverPID), ProcessStats.cpuSeconds(kmsPID))
        let configuration = RoomClient.Configuration(requestTimeout: .seconds(60), retries: 0, eventBufferLimit: 4096)
        let clients = (0..<count).map { index in
            RoomClient(room: Room(username: "user\(index)", roomName: "room\(index % rooms)", url: url),
                       configuration: configuration)
        }
        let members = (0..<rooms).map { room in Array(stride(from: room, to: count, by: rooms)) }
        let publishers = members.flatMap { $0.prefix(publishersPerRoom) }
        // (subscriber, publisher) pairs: every member of a room but the publisher itself, to each publisher.
        let subscriptions = members.flatMap { room in
            room.prefix(publishersPerRoom).flatMap { publisher in room.filter { $0 != publisher }.map { ($0, publisher) } }
        }
        let peers = PeerManager()
        var made: [String: String] = [:]
        for index in publishers {
            made["user\(index)"] = try await peers.generateOffer(for: "user\(index)", media: .audioVideo(direction: .sendonly))
        }
        for (subscriber, publisher) in subscriptions {
            let id = "user\(subscriber)/user\(publisher)"
            made[id] = try await peers.generateOffer(for: id, media: .audioVideo(direction: .recvonly))
        }
        let offers = made

        let start = try await KMSStatistics.read()
        let join = await phase(clock, Array(clients.indices)) { index in _ = try await clients[index].join() }
        let joined = try await KMSStatistics.read()
        let publish = await phase(clock, publishers) { index in
            let answer = try await timed(clock) { try await clients[index].publishVideo(sdpOffer: offers["user\(index)"]!) }
            try await peers.processAnswer(answer.value, for: "user\(index)")
            return answer.latency
        }
        let published = try await KMSStatistics.read()
        let subscribe = await phase(clock, subscriptions.indices.map { $0 }) { pair in
            let (subscriber, publisher) = subscriptions[pair]
            let id = "user\(subscriber)/user\(publisher)"
            let sender = Peer(identifier: "user\(publisher)", streams: ["webcam"])
            let answer = try await timed(clock) { try await clients[subscriber].receiveVideo(from: sender, sdpOffer: offers[id]!) }
            try await peers.processAnswer(answer.value, for: id)
            return answer.latency
        }
        let subscribed = try await KMSStatistics.read()
        let leave = await phase(clock, Array(clients.indices)) { index in try await clients[index].leave() }
        // Releases go to KMS after the replies to leaveRoom: wait (bounded) for the double to hold nothing.
        var left = try await KMSStatistics.read()
        let leaveDeadline = clock.now + .seconds(30)
        while left.objects > 0, clock.now < leaveDeadline {
            try await Task.sleep(for: .milliseconds(20))
            left = try await KMSStatistics.read()
        }
        let cpu = (ProcessStats.cpuSeconds(serverPID) - cpuBefore.0, ProcessStats.cpuSeconds(kmsPID) - cpuBefore.1)

        let perJoin = joined.minus(start, per: count)
        let perPublish = published.minus(joined, per: publishers.count)
        let perSubscription = subscribed.minus(published, per: subscriptions.count)
        var failures: [String: Any] = [:]
        for (name, phase) in [("join", join), ("publish", publish), ("subscribe", subscribe), ("leave", leave)]
            where !phase.failures.isEmpty
        {
            failures[name] = ["count": phase.failures.count, "first": phase.failures[0]]
        }
        return [
            "clients": count, "rooms": rooms, "publishers": publishers.count, "subscriptions": subscriptions.count,
            "join_storm_s": round3(join.seconds),
            "publish_storm_s": round3(publish.seconds),
            "publish_p50_ms": round1(publish.latencies.percentile(50) / 1000),
            "publish_p99_ms": round1(publish.latencies.percentile(99) / 1000),
            "subscribe_storm_s": round3(subscribe.seconds),
            "subscribe_p50_ms": round1(subscribe.latencies.percentile(50) / 1000),
            "subscribe_p99_ms": round1(subscribe.latencies.percentile(99) / 1000),
            "kms_per_join": perJoin.figures, "kms_per_publish": perPublish.figures,
            "kms_per_subscription": perSubscription.figures,
            "kms_connections": subscribed.connections, "kms_connections_accepted": subscribed.connectionsAccepted,
            "kms_objects_at_peak": subscribed.objects, "kms_objects_after_leave": left.objects,
            "server_cpu_s": round3(cpu.0), "kms_cpu_s": round3(cpu.1),
            "failures": failures,
        ]
    }

    /// Runs `body` for every item at once; the phase's wall time, its failures, and the latency each success
    /// returned (none when `body` returns nothing to time).
    static func phase<Item: Sendable>(
        _ clock: ContinuousClock, _ items: [Item], _ body: @escaping @Sendable (Item) async throws -> Duration?
    ) async -> Phase {
        let begin = clock.now
        let outcomes = await withTaskGroup(of: Result<Duration?, any Error>.self) { group in
            for item in items {
                group.addTask {
                    do { return .success(try await body(item)) } catch { return .failure(error) }
                }
            }
            var outcomes: [Result<Duration?, any Error>] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        var phase = Phase(seconds: seconds(clock.now - begin))
        for outcome in outcomes {
            switch outcome {
            case .success(let latency?): phase.latencies.add(latency)
            case .success(nil): break
            case .failure(let error): phase.failures.append("\(error)")
            }
        }
        return phase
    }

    /// A phase whose calls are not timed one by one.
    static func phase<Item: Sendable>(
        _ clock: ContinuousClock, _ items: [Item], _ body: @escaping @Sendable (Item) async throws -> Void
    ) async -> Phase {
        await phase(clock, items) { (item: Item) -> Duration? in
            try await body(item)
            return nil
        }
    }

    /// `body`'s value and how long it took.
    static func timed<T>(_ clock: ContinuousClock, _ body: () async throws -> T) async throws
        -> (value: T, latency: Duration)
    {
        let begin = clock.now
        let value = try await body()
        return (value, clock.now - begin)
    }

    static func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
