import Foundation
import RoomCluster
import TestSupport

/// Whether the Redis tests run: redis-server is installed, or this is CI (where its absence is a failure).
let redisTestsRun = RedisServerProcess.executable != nil || isCI

/// A fresh redis-server and a connection to it.
func redisFixture(password: String? = nil, timeout: Duration = .seconds(2)) async throws
    -> (RedisServerProcess, RedisURL, RedisConnection)
{
    let server = try await RedisServerProcess(password: password)
    let url = try RedisURL(parsing: server.url)
    return (server, url, RedisConnection(url: url, timeout: timeout))
}
