import JSONRPC
import Prometheus
import RoomClient
import RoomServer
import RoomServerPrometheus
import RoomTestSupport
import SignalingSupport
import Testing
import TestSupport

/// A Prometheus registry of the test's own, and the ``SignalingMetrics`` over it: no global bootstrap, so tests in
/// one process never see each other's metrics (docs/operations.md#metrics).
struct MetricsFixture {
    /// What `room-server` exports, over a registry of the test's own (RoomServerPrometheus).
    let exporter = PrometheusExporter()

    var registry: PrometheusCollectorRegistry { exporter.registry }

    var metrics: SignalingMetrics { exporter.metrics }

    /// The registry rendered and read back.
    var scrape: Scrape { Scrape(registry.emitToString()) }

    /// Waits until `series` shows `value` in a scrape.
    func waitUntil(_ series: String, is value: Double) async throws {
        try await TestSupport.waitUntil("\(series) to be \(value)") { [registry] in
            Scrape(registry.emitToString())[series] == value
        }
    }
}

/// One Prometheus text exposition, as series (`name{labels}`, exactly as written) → value.
struct Scrape: CustomStringConvertible {
    let text: String
    let values: [String: Double]

    init(_ text: String) {
        self.text = text
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            values[String(line[..<space])] = value
        }
        self.values = values
    }

    subscript(series: String) -> Double? { values[series] }

    /// The sum over every series of metric `name` (`name` alone or `name{…}`).
    func total(_ name: String) -> Double {
        values.filter { $0.key == name || $0.key.hasPrefix(name + "{") }.values.reduce(0, +)
    }

    var description: String { text }
}

extension LocalTransport {
    /// In-memory connections that `server` serves (``LocalTransport/dropNewest()`` ends the newest from the server's
    /// side, as a lost socket).
    static func serving(_ server: RoomServer) -> LocalTransport { LocalTransport { far in Task { await server.serve(far) } } }
}

extension RoomTestClient {
    /// A user whose client sends no heartbeat: the metrics then count only what the test does.
    static func metered(_ name: String, room: String, url: String) -> RoomTestClient {
        RoomTestClient(name, room: room, url: url, configuration: .init(heartbeat: .off))
    }
}

/// The error code a call failed with, or `nil` when it succeeded or failed otherwise.
func errorCode(_ call: () async throws -> JSONValue) async -> Int? {
    do {
        _ = try await call()
        return nil
    } catch RPCError.remote(let error) {
        return error.code
    } catch {
        return nil
    }
}
