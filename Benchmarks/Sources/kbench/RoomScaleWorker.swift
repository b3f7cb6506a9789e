import Foundation
import JSONRPC
import RoomClient
import SignalingSupport

/// `kbench room-scale-worker URL FIRST COUNT ROOMS`: one of the load processes of the 10,000-client row
/// (Benchmarks/harness/scale.py starts several and drives them). It owns clients `FIRST..<FIRST+COUNT`; client `i`
/// is `user<i>` in `room<i % ROOMS>`, so every room has members in every worker.
///
/// It reads commands on stdin, one per line, and answers with one JSON object per line on stdout. Times are
/// `CLOCK_MONOTONIC` nanoseconds, comparable across the processes of one machine (Python's `time.monotonic_ns`).
/// - (at start) `{"ready": COUNT}` once the clients exist and their events are being read;
/// - `join`: every client joins at once: `{"joined": OK, "failed": N, "start": T, "end": T, "error": FIRST}`;
/// - `send I TEXT`: client `I` sends chat `TEXT` (it must end in `-r<room>`): `{"sent": TEXT, "at": T}` (the
///   time just before the call) or `{"sent": TEXT, "error": …}`;
/// - (unasked) `{"got": TEXT, "last": T}` once every member of TEXT's room in this worker has received it;
/// - `leave`: every client leaves at once: `{"left": OK, "failed": N, "start": T, "end": T}`;
/// - end of input: the worker exits.
enum RoomScaleWorker {
    static func run(url: String, first: Int, count: Int, rooms: Int) async throws {
        let configuration = RoomClient.Configuration(requestTimeout: .seconds(120), retries: 0, eventBufferLimit: 4096)
        let indices = first..<(first + count)
        let clients = indices.map { index in
            RoomClient(room: Room(username: "user\(index)", roomName: "room\(index % rooms)", url: url),
                       configuration: configuration)
        }
        var localMembers = [Int: Int]()
        for index in indices { localMembers[index % rooms, default: 0] += 1 }
        let expected = localMembers
        let receipts = LockedValue<[String: Int]>([:])
        let listeners = clients.map { client in
            let events = client.events
            return Task {
                for try await event in events {
                    guard case .message(let text, _) = event else { continue }
                    let now = monotonicNanoseconds()
                    guard let room = room(of: text), let wanted = expected[room] else { continue }
                    let complete = receipts.withLock { counts -> Bool in
                        counts[text, default: 0] += 1
                        guard counts[text] == wanted else { return false }
                        counts[text] = nil
                        return true
                    }
                    if complete { say(["got": text, "last": now]) }
                }
            }
        }
        say(["ready": count])

        for await line in standardInputLines() {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            switch words.first {
            case "join":
                say(await storm(clients, key: "joined") { _ = try await $0.join() })
            case "leave":
                say(await storm(clients, key: "left") { try await $0.leave() })
            case "send" where words.count == 3:
                guard let index = Int(words[1]), indices.contains(index) else {
                    say(["sent": words[2], "error": "client \(words[1]) is not in this worker"])
                    continue
                }
                let client = clients[index - first], text = words[2]
                Task {
                    let at = monotonicNanoseconds()
                    do {
                        try await client.sendMessage(text)
                        say(["sent": text, "at": at])
                    } catch {
                        say(["sent": text, "error": "\(error)"])
                    }
                }
            default:
                say(["error": "unknown command: \(line)"])
            }
        }
        listeners.forEach { $0.cancel() }
    }

    /// Runs `body` for every client at once; the figures of the storm under `key`.
    static func storm(_ clients: [RoomClient], key: String,
                      _ body: @escaping @Sendable (RoomClient) async throws -> Void) async -> [String: Any] {
        let failures = LockedValue<(count: Int, first: String?)>((0, nil))
        let start = monotonicNanoseconds()
        await withDiscardingTaskGroup { group in
            for client in clients {
                group.addTask {
                    do { try await body(client) } catch {
                        failures.withLock { $0.count += 1; $0.first = $0.first ?? "\(error)" }
                    }
                }
            }
        }
        let end = monotonicNanoseconds()
        let (failed, firstError) = failures.withLock { ($0.count, $0.first) }
        var answer: [String: Any] = [key: clients.count - failed, "failed": failed, "start": start, "end": end]
        if let firstError { answer["error"] = firstError }
        return answer
    }

    /// The room number at the end of a chat text (`…-r<room>`).
    static func room(of text: String) -> Int? {
        guard let marker = text.range(of: "-r", options: .backwards) else { return nil }
        return Int(text[marker.upperBound...])
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    private static let output = LockedValue(())

    /// One JSON object per line; lines from concurrent tasks never interleave.
    static func say(_ object: [String: Any]) {
        output.withLock { _ in KBench.emit(object) }
    }

    /// Lines of stdin, read by a thread of its own (a blocking read stays off the cooperative pool).
    static func standardInputLines() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
        return lines
    }
}
