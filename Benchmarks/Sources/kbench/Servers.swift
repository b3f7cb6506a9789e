import CoreMetrics
import Foundation
import JSONRPC
import JSONRPCWebSocket
import NIOCore
import Prometheus
import RoomCluster
import RoomServer
import SignalingSupport
import WebSocketTransport

/// The server modes: print the URL, serve until SIGTERM or SIGINT, exit 0.
enum Servers {
    /// Our transport's raw echo: every inbound message is queued straight back, by a consumer on the connection's
    /// executor (the service thread).
    static func raw() async throws {
        let server = try await WebSocketServer.start()
        announce(server.url)
        let accepting = Task {
            await withDiscardingTaskGroup { group in
                for await connection in server.connections {
                    group.addTask(executorPreference: connection.executor) {
                        do {
                            for try await message in connection.messages { try connection.enqueue(message) }
                        } catch {}
                    }
                }
            }
        }
        await waitForSignal()
        accepting.cancel()
        exit(0)
    }

    /// The same code as Examples/jsonrpc-echo-server; with `KBENCH_METRICS=prometheus` in the environment, its
    /// metrics go to a Prometheus registry, as room-server's do (docs/operations.md#metrics).
    static func rpc() async throws {
        if ProcessInfo.processInfo.environment["KBENCH_METRICS"] == "prometheus" {
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()))
        }
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        server.registerSpecificationExamples()
        let listener = try await server.listen(on: WebSocketServerConfiguration())
        announce(listener.url)
        await waitForSignal()
        exit(0)
    }

    /// An embedded room server with the simulated media backend and default limits; with `cluster`
    /// (Redis URL, node id), a node of that cluster.
    static func room(cluster: (String, String)?) async throws {
        let node = try cluster.map { ClusterConfiguration(redis: try RedisURL(parsing: $0.0), nodeID: $0.1) }
        var configuration = RoomServer.Configuration(cluster: node)
        // KBENCH_RTT_PROBE_SECONDS (0: off) sets the round-trip probe's interval, to tell its idle cost apart.
        if let probe = ProcessInfo.processInfo.environment["KBENCH_RTT_PROBE_SECONDS"].flatMap(Double.init) {
            configuration.operations.rttProbeInterval = probe > 0 ? .milliseconds(Int(probe * 1000)) : nil
        }
        let server = try await RoomServer.start(configuration)
        announce(server.url)
        await waitForSignal()
        exit(0)
    }

    /// The SwiftNIO baseline (``NIORPCServer``).
    static func nio() async throws {
        let channel = try await NIORPCServer.start()
        guard let port = channel.localAddress?.port else { throw NIOWebSocketDial.Failure(description: "no port") }
        announce("ws://127.0.0.1:\(port)/")
        await waitForSignal()
        exit(0)
    }

    static func announce(_ url: String) {
        FileHandle.standardOutput.write(Data((url + "\n").utf8))
    }

    static func waitForSignal() async {
        let (stop, sources) = ProcessSignals.stream([SIGINT, SIGTERM], label: "kbench.signals")
        defer { sources.forEach { $0.cancel() } }
        for await _ in stop { break }
    }
}
