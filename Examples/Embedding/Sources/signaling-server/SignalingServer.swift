import DemoProtocol
import Foundation
import Logging
import RoomServer
import RoomServerLifecycle
import RoomServerPrometheus
import ServiceLifecycle

/// A room server of one's own: `RoomServer` with a bearer token checked before the WebSocket upgrade (HTTP 401
/// without it), a typed `customRequest`, swift-log on stderr, Prometheus metrics on `GET /metrics`, run as a
/// swift-service-lifecycle service that shuts down gracefully on SIGTERM and SIGINT.
///
/// Environment: `SIGNALING_TOKEN` (default `demo-token`), `SIGNALING_HOST` (default 127.0.0.1), `SIGNALING_PORT`
/// (default 0: a free port). The first stdout line is JSON: `{"metrics":"http://…/metrics","url":"ws://…/room"}`.
@main
struct SignalingServer {
    static func main() async throws {
        _ = DemoProtocol.arguments(count: 0, usage: "signaling-server (SIGNALING_PORT, SIGNALING_TOKEN from the environment)")
        let environment = ProcessInfo.processInfo.environment
        let token = environment["SIGNALING_TOKEN"] ?? "demo-token"
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "signaling-server")
        logger.logLevel = .info
        PrometheusExporter.shared.bootstrap()  // once, before any server or client is made

        var configuration = RoomServer.Configuration(
            host: environment["SIGNALING_HOST"] ?? "127.0.0.1",
            port: Int(environment["SIGNALING_PORT"] ?? "") ?? 0,
            logger: logger)
        // Cheap and synchronous, answered before the handshake: a wrong or missing token is HTTP 401.
        configuration.upgradeFilter = { request in
            request.bearerToken == token ? .accept : .reject(status: 401, reason: "unauthorized")
        }
        let greetings = Counter()
        configuration.customRequest = RoomCustomRequest.handler { (hello: Hello, request) in
            try await request.session.notify(Greeted.method, params: JSONValue(encoding: Greeted(name: hello.name)))
            return Greeting(text: "hello, \(hello.name)", count: await greetings.next())
        }
        configuration.exportMetrics(to: .shared)

        let server = try await RoomServer.start(configuration)
        let urls = try JSONEncoder.sorted.encode(["url": server.url, "metrics": server.metricsURL])
        FileHandle.standardOutput.write(urls + Data("\n".utf8))
        logger.info("serving", metadata: ["url": "\(server.url)", "metrics": "\(server.metricsURL)"])

        let group = ServiceGroup(configuration: .init(
            services: [RoomServerService(server)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        logger.info("stopped")
    }
}

/// How many greetings the server made.
actor Counter {
    private var value = 0
    func next() -> Int {
        value += 1
        return value
    }
}

extension JSONEncoder {
    /// An encoder whose output does not depend on dictionary order.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
