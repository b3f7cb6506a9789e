import Foundation
import JSONRPC
import PeerManager
import RoomClient
import RoomCluster
import SDP
import SignalingSupport

/// Row 3: `clients` RoomClients in this one process (one event loop) against a room server in another.
///
/// 1. Join storm: every client joins one of 20 rooms at once; measured from the first call to the last result.
/// 2. Publish: every client publishes the same send-only offer (the simulated backend answers each).
/// 3. Chat: 10 rounds; in each, one member of every room sends a message (20 at once). The fan-out latency of a
///    message runs from just before `sendMessage` to its last receipt in the room (the sender included, as the
///    server broadcasts to the whole room).
/// 4. One room at a time: 40 messages, each sent once the previous one reached its whole room.
/// The server's RSS (VmRSS) is read before the first connection and after the join storm; its CPU time
/// (utime + stime) over the whole run.
enum RoomLoad {
    static let rooms = 20
    /// Chat rounds: 10, or `KBENCH_CHAT_ROUNDS` (more rounds make the chat phase dominate a profile).
    static let rounds = Int(ProcessInfo.processInfo.environment["KBENCH_CHAT_ROUNDS"] ?? "") ?? 10

    struct Receipt { var count = 0; var last: ContinuousClock.Instant? }

    /// With several `urls` (the nodes of a cluster), client `i` dials node `i % urls.count`, so every room has
    /// members on every node; RSS and CPU are summed over `serverPIDs`. With `redis`, the Redis commands of the
    /// join storm and of the chat rounds are counted (`INFO stats`).
    static func run(urls: [String], serverPIDs: [Int32], clients count: Int, redis: RedisURL? = nil)
        async throws -> [String: Any]
    {
        let clock = ContinuousClock()
        let rssBefore = serverPIDs.reduce(0) { $0 + ProcessStats.residentKiB($1) }
        let cpuBefore = serverPIDs.reduce(0) { $0 + ProcessStats.cpuSeconds($1) }
        let commands = redis.map { RedisConnection(url: $0) }
        let runStart = clock.now
        let configuration = RoomClient.Configuration(requestTimeout: .seconds(60), retries: 0, eventBufferLimit: 4096)
        let clients = (0..<count).map { index in
            RoomClient(room: Room(username: "user\(index)", roomName: "room\(index % rooms)", url: urls[index % urls.count]),
                       configuration: configuration)
        }
        let receipts = LockedValue<[String: Receipt]>([:])
        let listeners = clients.map { client in
            let events = client.events
            return Task {
                for try await event in events {
                    guard case .message(let text, _) = event else { continue }
                    let now = clock.now
                    receipts.withLock { $0[text, default: Receipt()].count += 1; $0[text]!.last = now }
                }
            }
        }

        // 1. Join storm.
        let commandsBeforeJoin = await processedCommands(commands)
        let joinStart = clock.now
        try await withThrowingDiscardingTaskGroup { group in
            for client in clients { group.addTask { try await client.join() } }
        }
        let joinSeconds = seconds(clock.now - joinStart)
        let commandsAfterJoin = await processedCommands(commands)
        let rssAfter = serverPIDs.reduce(0) { $0 + ProcessStats.residentKiB($1) }

        // 2. Publish.
        var generator = SeededRandomNumberGenerator(seed: 3)
        let offer = OfferBuilder.offer(
            for: .audioVideo(direction: .sendonly), credentials: .random(using: &generator),
            fingerprint: .randomSHA256(using: &generator), sessionID: generator.next()
        ).serialized()
        let publishStart = clock.now
        try await withThrowingDiscardingTaskGroup { group in
            for client in clients { group.addTask { _ = try await client.publishVideo(sdpOffer: offer) } }
        }
        let publishSeconds = seconds(clock.now - publishStart)

        // 3. Chat fan-out.
        let commandsBeforeChat = await processedCommands(commands)
        var latencies = Samples()
        let members = (0..<rooms).map { room in Array(stride(from: room, to: count, by: rooms)) }
        for round in 0..<rounds {
            let sent = LockedValue<[String: ContinuousClock.Instant]>([:])
            try await withThrowingDiscardingTaskGroup { group in
                for room in 0..<rooms where !members[room].isEmpty {
                    let sender = clients[members[room][round % members[room].count]]
                    let text = "round\(round)-room\(room)"
                    group.addTask {
                        sent.withLock { $0[text] = clock.now }
                        try await sender.sendMessage(text)
                    }
                }
            }
            let waitEnd = clock.now + .seconds(20)
            while clock.now < waitEnd {
                let done = receipts.withLock { r in
                    (0..<rooms).allSatisfy { r["round\(round)-room\($0)"]?.count ?? 0 >= members[$0].count }
                }
                if done { break }
                try await Task.sleep(for: .milliseconds(1))
            }
            let times = sent.withLock { $0 }
            receipts.withLock { r in
                for (text, start) in times {
                    guard let last = r[text]?.last else { continue }
                    latencies.add(last - start)
                }
            }
        }
        let commandsAfterChat = await processedCommands(commands)
        let serverCPU = serverPIDs.reduce(0) { $0 + ProcessStats.cpuSeconds($1) } - cpuBefore
        let elapsed = seconds(clock.now - runStart)

        // 4. One room at a time (not in the CPU figure): the fan-out of a single message to its room of 50, the
        //    other 950 clients connected and quiet.
        var solo = Samples()
        for index in 0..<(2 * rooms) {
            let room = index % rooms
            guard !members[room].isEmpty else { continue }
            let sender = clients[members[room][(index / rooms + 1) % members[room].count]]
            let text = "solo\(index)-room\(room)"
            let start = clock.now
            try await sender.sendMessage(text)
            let waitEnd = clock.now + .seconds(20)
            while clock.now < waitEnd, receipts.withLock({ $0[text]?.count ?? 0 }) < members[room].count {
                try await Task.sleep(for: .microseconds(200))
            }
            if let last = receipts.withLock({ $0[text]?.last }) { solo.add(last - start) }
        }
        listeners.forEach { $0.cancel() }
        var redisFigures: [String: Any] = [:]
        if let before = commandsBeforeJoin, let afterJoin = commandsAfterJoin, let beforeChat = commandsBeforeChat,
           let afterChat = commandsAfterChat {
            // (each INFO call counts one command itself)
            redisFigures["redis_commands_per_join"] = round1(Double(afterJoin - before - 1) / Double(count))
            redisFigures["redis_commands_per_chat_message"] =
                round1(Double(afterChat - beforeChat - 1) / Double(max(1, latencies.values.count)))
        }
        return redisFigures.merging([
            "nodes": urls.count,
            "clients": count, "rooms": rooms,
            "join_storm_s": (joinSeconds * 1000).rounded() / 1000,
            "publish_s": (publishSeconds * 1000).rounded() / 1000,
            "chat_messages": latencies.values.count,
            "chat_fanout_p50_us": round1(latencies.percentile(50)),
            "chat_fanout_p99_us": round1(latencies.percentile(99)),
            "solo_messages": solo.values.count,
            "solo_fanout_p50_us": round1(solo.percentile(50)),
            "solo_fanout_p99_us": round1(solo.percentile(99)),
            "server_rss_before_kib": rssBefore, "server_rss_after_join_kib": rssAfter,
            "server_rss_per_connection_kib": round1(Double(rssAfter - rssBefore) / Double(count)),
            "server_cpu_s": (serverCPU * 1000).rounded() / 1000,
            "elapsed_s": (elapsed * 1000).rounded() / 1000,
        ]) { first, _ in first }
    }

    /// Redis's `total_commands_processed`, or nil without Redis.
    static func processedCommands(_ redis: RedisConnection?) async -> Int? {
        guard let redis, let info = try? await redis.command("INFO", "stats").string else { return nil }
        for line in info.split(whereSeparator: \.isNewline) where line.hasPrefix("total_commands_processed:") {
            return Int(line.dropFirst("total_commands_processed:".count))
        }
        return nil
    }
}
