import Foundation
import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import WebSocketTransport

/// Echo clients: a pipelined phase (32 messages in flight for `seconds`) and a sequential phase (one message at
/// a time, about `seconds / 2`, at most 20,000 round trips) on the same connection.
enum EchoClients {
    static let window = 32
    /// Raw frames are exactly 256 bytes; JSON-RPC requests carry a 200-character string and come to about 256.
    static let frame = String(repeating: "x", count: 256)
    static let params: JSONValue = [.string(String(repeating: "x", count: 200))]

    /// The consumer runs on the connection's executor, the service thread (how the transport is meant to be read).
    static func raw(url: String, seconds duration: Double) async throws -> [String: Any] {
        let connection = try await WebSocketConnection.connect(to: url)
        return try await withTaskExecutorPreference(connection.executor) {
            try await rawPhases(connection, seconds: duration)
        }
    }

    private static func rawPhases(_ connection: WebSocketConnection, seconds duration: Double) async throws
        -> [String: Any]
    {
        var inbound = connection.messages.makeAsyncIterator()
        let clock = ContinuousClock()
        // Pipelined: keep `window` frames in flight until the deadline, then drain.
        let start = clock.now
        let deadline = start + .milliseconds(Int(duration * 1000))
        for _ in 0..<window { try connection.enqueue(.text(frame)) }
        var inFlight = window, received = 0
        var last = start
        while inFlight > 0, try await inbound.next() != nil {
            received += 1
            last = clock.now
            if last < deadline { try connection.enqueue(.text(frame)) } else { inFlight -= 1 }
        }
        let rate = Double(received) / seconds(last - start)
        // Sequential.
        var samples = Samples()
        let sequentialEnd = clock.now + .milliseconds(Int(duration * 500))
        while clock.now < sequentialEnd, samples.values.count < 20_000 {
            let sent = clock.now
            try connection.enqueue(.text(frame))
            guard try await inbound.next() != nil else { break }
            samples.add(clock.now - sent)
        }
        await connection.close()
        return report(rate: rate, samples: samples)
    }

    /// What a JSON-RPC client run does: the two timed phases, or `calls` sequential calls and nothing else (for
    /// instruction counts under callgrind, where time means nothing).
    enum Run {
        case timed(seconds: Double)
        case calls(Int)
    }

    /// `onLoop`: the calling tasks prefer the event loop's executor (``WebSocketEventLoopExecutor``), so a call
    /// and its completion never leave the service thread; otherwise they run on the global executor, as a caller
    /// usually does (and as the NIO client's callers do).
    static func rpc(url: String, run: Run, onLoop: Bool = false) async throws -> [String: Any] {
        let client = JSONRPCClient(url: url, configuration: .init(requestTimeout: .seconds(30), retries: 0,
                                                                  readsOnEventLoop: onLoop))
        try await client.connect()
        let executor: (any TaskExecutor)? = onLoop ? WebSocketEventLoop.shared.executor : nil
        let result = try await withTaskExecutorPreference(executor) {
            try await measure(run) { _ = try await client.call("echo", params: params) }
        }
        await client.close()
        return result
    }

    /// The same calls with the loop-driven SwiftNIO client (``NIOLoopRPCHandler``): the handler makes them on
    /// the event loop, so `window` stands for the calling tasks of ``measure(_:call:)``. Its `errors` count replies
    /// that failed their check.
    static func nio(url: String, run: Run) async throws -> [String: Any] {
        let outcome = try await NIOLoopRPCHandler.measure(
            url: url, run: run, window: window, params: [String(repeating: "x", count: 200)])
        var result: [String: Any]
        switch run {
        case .calls(let count): result = ["calls": count]
        case .timed: result = report(rate: outcome.rate, samples: outcome.samples)
        }
        result["errors"] = outcome.errors
        return result
    }

    /// The same calls with the async-caller SwiftNIO client (``NIORPCClient``): callers in tasks, as ours.
    static func nioAsync(url: String, run: Run) async throws -> [String: Any] {
        let client = try await NIORPCClient.connect(to: url)
        let params: NIORPC.Value = .array([.string(String(repeating: "x", count: 200))])
        let result = try await measure(run) { _ = try await client.call("echo", params: params) }
        try await client.close()
        return result
    }

    /// One warm-up call, then the run: `window` tasks calling in a loop until the deadline, then one call at a
    /// time on the same connection.
    static func measure(_ run: Run, call: @escaping @Sendable () async throws -> Void) async throws -> [String: Any] {
        try await call()
        let duration: Double
        switch run {
        case .calls(let count):
            for _ in 0..<count { try await call() }
            return ["calls": count]
        case .timed(let seconds):
            duration = seconds
        }
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int(duration * 1000))
        let received = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<window {
                group.addTask {
                    var count = 0
                    while clock.now < deadline {
                        try await call()
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let rate = Double(received) / seconds(clock.now - start)
        var samples = Samples()
        let sequentialEnd = clock.now + .milliseconds(Int(duration * 500))
        while clock.now < sequentialEnd, samples.values.count < 20_000 {
            let sent = clock.now
            try await call()
            samples.add(clock.now - sent)
        }
        return report(rate: rate, samples: samples)
    }

    static func report(rate: Double, samples: Samples) -> [String: Any] {
        ["msgs_per_s": rate.rounded(), "rtt_p50_us": round1(samples.percentile(50)),
         "rtt_p99_us": round1(samples.percentile(99)), "samples": samples.values.count]
    }

    /// Opens `connections` JSON-RPC clients, makes one call on each, then idles until SIGTERM.
    static func idle(url: String, connections: Int) async throws {
        var clients: [JSONRPCClient] = []
        for _ in 0..<connections {
            let client = JSONRPCClient(url: url)
            _ = try await client.call("echo", params: params)
            clients.append(client)
        }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        await Servers.waitForSignal()
        withExtendedLifetime(clients) {}
        exit(0)
    }
}
