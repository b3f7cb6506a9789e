import Foundation
import JSONRPC
import TestSupport
import Testing

/// docs/operations.md with the built `room-server`: the admin token from the environment or `--admin-token`, and
/// `--metrics-port`.
@Suite("room-server operations")
struct RoomServerOperationsCLITests {
    @Test("takes the admin token from ROOM_SERVER_ADMIN_TOKEN and serves probes and metrics on --metrics-port")
    func adminTokenFromTheEnvironmentAndAMetricsPort() async throws {
        // Given room-server with the token in its environment and a metrics port
        let server = try await RoomServerProcess.start(["--metrics-port", "0"],
                                                       environment: ["ROOM_SERVER_ADMIN_TOKEN": "env-token-0123456789"])
        let main = try #require(RawHTTPClient.port(of: server.url))
        let operationsURL = try await server.child.nextLine() ?? ""
        #expect(operationsURL.hasPrefix("http://127.0.0.1:"))
        let metricsPort = try #require(RawHTTPClient.port(of: operationsURL))

        // Then the main port serves the admin routes with that token (and only with it)
        #expect(try await RawHTTPClient.get(port: main, "/rooms", headers: Self.bearer("env-token-0123456789")).status == 200)
        #expect(try await RawHTTPClient.get(port: main, "/rooms").status == 401)
        #expect(try await RawHTTPClient.get(port: main, "/dashboard").status == 200)
        // And the metrics port answers the probes and the process's metrics, never the rooms
        #expect(try await RawHTTPClient.get(port: metricsPort, "/healthz").text == "ok\n")
        #expect(try await RawHTTPClient.get(port: metricsPort, "/readyz").text == "ready\n")
        let metrics = try await RawHTTPClient.get(port: metricsPort, "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(metrics.text.contains("signaling_"))
        #expect(try await RawHTTPClient.get(port: metricsPort, "/rooms", headers: Self.bearer("env-token-0123456789")).status == 404)

        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
        #expect(!(await server.child.stderr).contains("env-token-0123456789"))
    }

    @Test("--admin-token wins over the environment; without either the admin routes are off")
    func adminTokenOption() async throws {
        let withOption = try await RoomServerProcess.start(["--admin-token", "opt-token-0123456789"],
                                                           environment: ["ROOM_SERVER_ADMIN_TOKEN": "env-token-0123456789"])
        let port = try #require(RawHTTPClient.port(of: withOption.url))
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer("opt-token-0123456789")).status == 200)
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer("env-token-0123456789")).status == 401)
        withOption.child.send(SIGTERM)
        #expect(try await withOption.child.exitStatus() == 0)

        let without = try await RoomServerProcess.start(environment: ["ROOM_SERVER_ADMIN_TOKEN": ""])
        let plain = try #require(RawHTTPClient.port(of: without.url))
        #expect(try await RawHTTPClient.get(port: plain, "/rooms").status == 404)
        #expect(try await RawHTTPClient.get(port: plain, "/dashboard").status == 404)
        #expect(try await RawHTTPClient.get(port: plain, "/healthz").status == 200)
        without.child.send(SIGTERM)
        #expect(try await without.child.exitStatus() == 0)
    }

    static func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer " + token] }

    @Test("an admin token under 16 bytes, from the option or the environment, is a usage error (2)")
    func aShortAdminTokenIsAUsageError() async throws {
        let option = try ChildProcess("room-server", ["--admin-token", "fifteen-bytes!!"])
        #expect(try await option.exitStatus() == 2)
        #expect(await option.stderr.contains("--admin-token: the admin token must have at least 16 bytes"))
        let environment = try ChildProcess("room-server", [], environment: ["ROOM_SERVER_ADMIN_TOKEN": "short"])
        #expect(try await environment.exitStatus() == 2)
        #expect(await environment.stderr.contains("ROOM_SERVER_ADMIN_TOKEN: the admin token must have at least 16 bytes"))
    }

    @Test("an empty --admin-token, a bad --metrics-port and --metrics-host alone are usage errors (2)")
    func usageErrors() async throws {
        for (arguments, message) in [(["--admin-token", ""], "--admin-token must not be empty"),
                                     (["--metrics-port", "70000"], "--metrics-port must be in 0...65535"),
                                     (["--metrics-host", "127.0.0.1"], "--metrics-host goes with --metrics-port")] {
            let child = try ChildProcess("room-server", arguments)
            #expect(try await child.exitStatus() == 2, "\(arguments)")
            #expect(await child.stderr.contains(message), "\(arguments)")
        }
        let help = try ChildProcess("room-server", ["--help"])
        #expect(try await help.exitStatus() == 0)
        // (Wrapped lines joined, their indentation collapsed.)
        let text = await help.remainingLines().joined(separator: " ").split(separator: " ").joined(separator: " ")
        for option in ["--admin-token", "ROOM_SERVER_ADMIN_TOKEN", "--metrics-port", "/healthz", "/readyz", "/dashboard",
                       "least 16 bytes", "Authorization: Bearer", "never in a URL"] {
            #expect(text.contains(option), "--help does not mention \(option)")
        }
    }
}
