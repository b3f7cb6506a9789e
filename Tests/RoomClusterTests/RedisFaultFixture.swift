import Foundation
import RoomClusterCore
import TestSupport
@testable import RoomCluster
import SignalingSupport

/// A redis-server of the test's own and a ``FaultProxy`` in front of it per node: the faults an operator's network
/// gives a node's link to Redis (black holes, resets, delays), one node at a time.
struct RedisFaultFixture {
    let server: RedisServerProcess
    /// The URL of Redis itself (no proxy).
    let direct: RedisURL

    init() async throws {
        server = try await RedisServerProcess()
        direct = try RedisURL(parsing: server.url)
    }

    /// A proxy in front of the server and its URL.
    func proxy() throws -> (FaultProxy, RedisURL) {
        let proxy = try FaultProxy(targetPort: server.port)
        return (proxy, try RedisURL(parsing: "redis://127.0.0.1:\(proxy.port)"))
    }

    /// A node (not started) with short intervals, reaching Redis at `url`.
    static func node(_ id: String, _ url: RedisURL, heartbeat: Duration = .milliseconds(100),
                     nodeTimeout: Duration = .seconds(3), timeout: Duration = .seconds(1),
                     queueCapacity: Int = 256) -> ClusterNode {
        var configuration = ClusterConfiguration(
            redis: url, nodeID: id, heartbeatInterval: heartbeat, nodeTimeout: nodeTimeout * deadlineScale,
            timeout: timeout * deadlineScale)
        configuration.queueCapacity = queueCapacity
        return ClusterNode(configuration: configuration)
    }
}

/// Runs `body` at about `rate` per second until the returned task is cancelled (a chat going on).
func everyInterval(_ interval: Duration, _ body: @escaping @Sendable () -> Void) -> Task<Void, Never> {
    Task {
        while !Task.isCancelled {
            body()
            try? await Task.sleep(for: interval)
        }
    }
}

/// Whether `error` is ``RedisError/unavailable(_:)``.
func isUnavailable(_ error: (any Error)?) -> Bool {
    if case .unavailable? = error as? RedisError { return true }
    return false
}

/// The error `body` fails with, waited for at most `timeout` (scaled): nil when it returned; a body still running
/// at the deadline fails the test with ``DeadlineExceeded`` (and is left running).
func failure(within timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> Void)
    async throws -> RedisError?
{
    let outcome = LockedValue<RedisError?>(nil)
    try await returnsWithin(timeout, what) {
        do { try await body() } catch { outcome.withLock { $0 = (error as? RedisError) ?? .server("\(error)") } }
    }
    return outcome.withLock { $0 }
}
