import Foundation
import JSONRPC
import JSONRPCWebSocket
import SharedObjectSQLite
import SharedObjectServer
import TestSupport
import Testing

/// The loop of issue 30 item 3, from several sessions at once: `sharedObject.connect` a new name, `set` a 60 KB
/// property, `close`; and what it left behind. (Transport failures count as refusals with code 0.)
struct SharedObjectAbuse {
    /// What the server answered over every session's loop.
    struct Tally: Sendable {
        /// Connects that succeeded.
        var connected = 0
        /// Sets that succeeded.
        var stored = 0
        /// Every refusal, by error code (connects, sets and closes).
        var refusals: [Int: Int] = [:]

        mutating func merge(_ other: Tally) {
            connected += other.connected
            stored += other.stored
            refusals.merge(other.refusals, uniquingKeysWith: +)
        }
    }

    /// The 60 KB value each loop sets (under the 64 KiB object limit with its key).
    static let blob = JSONValue.string(String(repeating: "x", count: 60_000))

    /// Runs `iterations` rounds of the loop on each of `sessions` sessions to `url` at once; each of them is
    /// followed by `successors` more, one after the other, each on a new session (so that no session's own
    /// memory, such as its duplicate-detection cache, adds up). Names are `<tag>-<session>-<successor>-<round>`.
    static func run(url: String, sessions: Int, iterations: Int, persistent: Bool, tag: String,
                    successors: Int = 0) async throws -> Tally {
        try await withThrowingTaskGroup(of: Tally.self) { group in
            for session in 0..<sessions {
                group.addTask {
                    var tally = Tally()
                    for successor in 0...successors {
                        tally.merge(await loop(url: url, iterations: iterations, persistent: persistent,
                                               tag: "\(tag)-\(session)-\(successor)"))
                    }
                    return tally
                }
            }
            var total = Tally()
            for try await tally in group { total.merge(tally) }
            return total
        }
    }

    /// One session's loop, names `<tag>-<round>`; the session is closed at the end.
    static func loop(url: String, iterations: Int, persistent: Bool, tag: String) async -> Tally {
        let client = JSONRPCClient(url: url, configuration: .init(retries: 0))
        var tally = Tally()
        for round in 0..<iterations {
            let name = JSONValue.string("\(tag)-\(round)")
            if await tally.count({ _ = try await client.call(
                "sharedObject.connect", params: ["name": name, "persistent": .bool(persistent)]) }) {
                tally.connected += 1
            }
            if await tally.count({ _ = try await client.call(
                "sharedObject.set", params: ["name": name, "properties": ["blob": blob]]) }) {
                tally.stored += 1
            }
            _ = await tally.count { _ = try await client.call("sharedObject.close", params: ["name": name]) }
        }
        await client.close()
        return tally
    }

    /// The objects in a SQLite store file and the bytes of their data's JSON text.
    static func contents(ofDatabase path: String) async throws -> (objects: Int, bytes: Int) {
        let store = try SQLiteSharedObjectStore(path: path)
        var bytes = 0
        let names = try await store.names()
        for name in names {
            if let object = try await store.load(name) { bytes += JSONValue.object(object.data).jsonText.utf8.count }
        }
        return (names.count, bytes)
    }

    static func temporaryDatabase() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("abuse-\(UUID().uuidString).sqlite").path
    }

    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

extension SharedObjectAbuse.Tally {
    /// Runs one call; `true` when it succeeded, else its remote error code is counted (0 for a failure that is not
    /// a remote error).
    mutating func count(_ call: () async throws -> Void) async -> Bool {
        do {
            try await call()
            return true
        } catch {
            refusals[(error as? RPCError)?.remoteError?.code ?? 0, default: 0] += 1
            return false
        }
    }
}
