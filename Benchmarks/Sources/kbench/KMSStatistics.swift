import Foundation

/// The KMS double's counters at one moment (`kms-double`'s `stats` answer). kbench cannot speak to the double's
/// stdin itself: it writes the line `stats` on its stdout, and run.py (harness/kms.py), which holds the double's
/// stdin and stdout, asks the double and writes its JSON line on kbench's stdin.
struct KMSStatistics {
    struct Unreadable: Error, CustomStringConvertible {
        var line: String?
        var description: String { "no KMS statistics from run.py: \(line ?? "end of input")" }
    }

    var objects: Int
    var connections: Int
    var connectionsAccepted: Int
    var methods: [String: Int]
    var operations: [String: Int]
    var events: Int

    var requests: Int { methods.values.reduce(0, +) }

    /// Asks run.py for the double's statistics now.
    static func read() async throws -> KMSStatistics {
        FileHandle.standardOutput.write(Data("stats\n".utf8))
        // A blocking read, on a thread of its own rather than the cooperative pool.
        let line = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: readLine()) }
        }
        guard let data = line?.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let objects = object["objects"] as? Int, let events = object["eventsSent"] as? Int
        else { throw Unreadable(line: line) }
        return KMSStatistics(
            objects: objects, connections: object["connections"] as? Int ?? -1,
            connectionsAccepted: object["connectionsAccepted"] as? Int ?? -1,
            methods: object["methods"] as? [String: Int] ?? [:], operations: object["operations"] as? [String: Int] ?? [:],
            events: events)
    }

    /// What happened between `earlier` and this reading, divided by `count` (joins, publishes, subscriptions).
    func minus(_ earlier: KMSStatistics, per count: Int) -> Share {
        func per(_ value: Int) -> Double { round1(Double(value) / Double(max(1, count))) }
        func per(_ now: [String: Int], _ before: [String: Int]) -> [String: Double] {
            now.reduce(into: [:]) { out, entry in
                let delta = entry.value - (before[entry.key] ?? 0)
                if delta > 0 { out[entry.key] = per(delta) }
            }
        }
        return Share(requests: per(requests - earlier.requests), events: per(events - earlier.events),
                     methods: per(methods, earlier.methods), operations: per(operations, earlier.operations))
    }

    /// KMS messages per operation of a phase: requests (each has its reply) and events.
    struct Share {
        var requests: Double
        var events: Double
        var methods: [String: Double]
        var operations: [String: Double]

        var figures: [String: Any] {
            ["requests": requests, "events": events, "methods": methods, "operations": operations]
        }
    }
}
