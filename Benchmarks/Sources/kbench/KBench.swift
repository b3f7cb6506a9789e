import Foundation
import RoomCluster

/// The Swift side of `make bench`. Benchmarks/run.py starts each mode as its own process.
///
/// Servers print their URL as the first stdout line and serve until SIGTERM or SIGINT:
/// - `kbench raw-server`: our transport's raw echo (every message sent back as it came, no JSON-RPC);
/// - `kbench rpc-server`: the code of Examples/jsonrpc-echo-server (plain JSON-RPC 2.0, `echo` returns params);
/// - `kbench room-server [REDIS_URL NODE_ID]`: (with a cluster node's settings when given) an embedded ``RoomServer/RoomServer`` with the ``RoomServer/SimulatedMediaBackend``;
/// - `kbench nio-server`: the SwiftNIO baseline, a plain JSON-RPC 2.0 echo on NIOWebSocket with Codable.
///
/// Clients print one JSON object on stdout:
/// - `kbench raw-client URL SECONDS`: 256-byte text frames over our transport, 32 in flight, then sequential;
/// - `kbench rpc-client URL SECONDS`: `echo` calls with our ``JSONRPC/JSONRPCClient``, the same two phases;
/// - `kbench rpc-loop-client URL SECONDS`: the same, the calling tasks on the event loop's executor;
/// - `kbench nio-client URL SECONDS`: the same calls with the loop-driven SwiftNIO client (the channel handler
///   writes the next request as each reply comes in, one flush per read burst; ``NIOLoopRPCHandler``); its
///   JSON also has `errors`, the replies that failed their check, and it exits with status 1 when there are any;
/// - `kbench nio-async-client URL SECONDS`: the same calls with the async-caller SwiftNIO client (``NIORPCClient``:
///   callers in tasks, each call encoded with JSONEncoder and written and flushed on its own);
/// - `kbench rpc-client|nio-client|nio-async-client URL --calls N`: N sequential calls only (after one warm-up
///   call), for instruction counts under callgrind;
/// - `kbench room-load URL[,URL…] SERVER_PID[,PID…] CLIENTS [REDIS_URL]`: join storm, publish and chat fan-out
///   against a room server, or the nodes of a cluster (clients spread over them; Redis commands counted);
/// - `kbench kms-load URL SERVER_PID KMS_PID CLIENTS`: join, publish and subscribe storms against `room-server --kms`
///   whose media is in `kms-double` (``KMSLoad``); it asks run.py for the double's counters by writing `stats` lines
///   and reading the answers on stdin, before its JSON object;
/// - `kbench idle-client URL CONNECTIONS`: connects, makes one call per connection, then idles until SIGTERM;
/// - `kbench room-scale-worker URL FIRST COUNT ROOMS`: one load process of the 10,000-client row, driven over
///   stdin/stdout by Benchmarks/harness/scale.py (``RoomScaleWorker``).
@main
enum KBench {
    /// Synchronous on purpose: an async `main` ends in `dispatch_main()`, which exits the main thread with
    /// `pthread_exit` and parks it in libdispatch's signal thread (`_dispatch_sig_thread`, in `sigsuspend`);
    /// valgrind 3.19 (callgrind and cachegrind alike) dies there ("the 'impossible' happened", SIGSEGV in the
    /// host) as soon as the next thread starts, so `make bench`'s instruction counts could not run. The main
    /// thread waits on a semaphore for a detached task that runs the mode instead.
    static func main() {
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await run()
            } catch {
                FileHandle.standardError.write(Data("kbench: \(error)\n".utf8))
                exit(1)
            }
            finished.signal()
        }
        finished.wait()
    }

    static func run() async throws {
        raiseOpenFileLimit()
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let mode = arguments.first else { usage() }
        let rest = Array(arguments.dropFirst())
        let needed = ["raw-client": 2, "rpc-client": 2, "rpc-loop-client": 2, "nio-client": 2, "nio-async-client": 2, "room-load": 3, "kms-load": 4, "idle-client": 2, "room-scale-worker": 4][mode] ?? 0
        guard rest.count >= needed, rest.first.map({ $0.hasPrefix("ws://") || $0.hasPrefix("redis://") }) ?? (needed == 0)
        else { usage() }
        switch mode {
        case "raw-server": try await Servers.raw()
        case "rpc-server": try await Servers.rpc()
        case "room-server": try await Servers.room(cluster: rest.count >= 2 ? (rest[0], rest[1]) : nil)
        case "nio-server": try await Servers.nio()
        case "raw-client": emit(try await EchoClients.raw(url: rest[0], seconds: Double(rest[1]) ?? 2))
        case "rpc-client": emit(try await EchoClients.rpc(url: rest[0], run: clientRun(rest)))
        case "rpc-loop-client": emit(try await EchoClients.rpc(url: rest[0], run: clientRun(rest), onLoop: true))
        case "nio-client":
            let result = try await EchoClients.nio(url: rest[0], run: clientRun(rest))
            emit(result)
            if let errors = result["errors"] as? Int, errors > 0 {
                FileHandle.standardError.write(Data("kbench: \(errors) replies failed their check\n".utf8))
                exit(1)
            }
        case "nio-async-client": emit(try await EchoClients.nioAsync(url: rest[0], run: clientRun(rest)))
        case "room-load":
            emit(try await RoomLoad.run(
                urls: rest[0].split(separator: ",").map(String.init),
                serverPIDs: rest[1].split(separator: ",").map { Int32($0) ?? 0 }, clients: Int(rest[2]) ?? 200,
                redis: rest.count > 3 ? try RedisURL(parsing: rest[3]) : nil))
        case "kms-load":
            emit(try await KMSLoad.run(url: rest[0], serverPID: Int32(rest[1]) ?? 0, kmsPID: Int32(rest[2]) ?? 0,
                                       clients: Int(rest[3]) ?? 200))
        case "idle-client": try await EchoClients.idle(url: rest[0], connections: Int(rest[1]) ?? 1)
        case "room-scale-worker":
            guard let first = Int(rest[1]), let count = Int(rest[2]), let rooms = Int(rest[3]), rooms > 0 else { usage() }
            try await RoomScaleWorker.run(url: rest[0], first: first, count: count, rooms: rooms)
        default: usage()
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: kbench raw-server|rpc-server|room-server|nio-server|raw-client|rpc-client|rpc-loop-client|nio-client|nio-async-client|room-load|kms-load|idle-client|room-scale-worker ...\n".utf8))
        exit(64)
    }

    /// `URL SECONDS` or `URL --calls N`.
    static func clientRun(_ rest: [String]) -> EchoClients.Run {
        if rest[1] == "--calls" {
            guard rest.count > 2, let count = Int(rest[2]), count >= 0 else { usage() }
            return .calls(count)
        }
        return .timed(seconds: Double(rest[1]) ?? 2)
    }

    /// Prints one JSON object on a line of its own.
    static func emit(_ object: [String: Any]) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// A thousand clients need more descriptors than the usual soft limit of 1,024; the event loop sizes its fd
    /// table from this limit, so it is raised before the loop exists.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = min(limit.rlim_max, 65536)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
