import Foundation
import JSONRPC
import RoomClient
import SharedObjects
import TestSupport
import Testing

/// Issue 30 item 12: the cluster's Redis password never has to be on `room-server`'s command line (where `ps` shows
/// it), and a client is never told where the cluster's Redis is.
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterSecretTests {
    static let password = "pw-" + UUID().uuidString

    /// `room-server` on port 0 with `arguments`; its URL, or `nil` when it exited before printing one.
    static func roomServer(_ arguments: [String], environment: [String: String] = [:]) async throws
        -> (ChildProcess, String?)
    {
        let child = try ChildProcess("room-server", ["--port", "0", "--node-timeout", "3"] + arguments,
                                     environment: environment)
        return (child, try await child.nextLine(within: .seconds(15)))
    }

    /// The command line of process `pid` as `ps` shows it (its arguments joined by spaces).
    static func commandLine(of pid: Int32) throws -> String {
        let raw = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
        return String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
    }

    /// Proves a node reached the password-protected Redis: a join goes through its name claim there.
    static func joinThrough(_ url: String, as user: String) async throws {
        let member = Member(user, url: url)
        #expect(try await member.join() == [])  // (the others already there: none)
        await member.client.disconnect()
    }

    /// A file holding `text`, readable by its owner only, removed by the caller.
    static func secretFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("redis-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8),
                                               attributes: [.posixPermissions: 0o600]))
        return path
    }

    @Test func thePasswordComesFromAFileAndIsNotOnTheCommandLine() async throws {
        // Given a Redis that requires a password, and the password in a file (with its newline)
        let redis = try await RedisServerProcess(password: Self.password)
        let file = try Self.secretFile(Self.password + "\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let url = "redis://127.0.0.1:\(redis.port)"

        // When room-server is given the URL without the password, and the file
        let (server, serverURL) = try await Self.roomServer(["--cluster", url, "--cluster-password-file", file,
                                                             "--node-id", "n1"])

        // Then it serves rooms through that Redis, and its command line does not carry the password
        let stderr = serverURL == nil ? await server.stderr : ""
        let dial = try #require(serverURL, "room-server exited: \(stderr)")
        try await Self.joinThrough(dial, as: "alice")
        #expect(try !Self.commandLine(of: server.processIdentifier).contains(Self.password))
        server.send(SIGINT)
        #expect(try await server.exitStatus() == 0)

        // And without the password the same Redis refuses it: it exits 1, without printing the password
        let (refused, none) = try await Self.roomServer(["--cluster", url, "--node-id", "n2"])
        #expect(none == nil)
        #expect(try await refused.exitStatus() == 1)
        await redis.stop()
    }

    @Test func thePasswordOrTheWholeURLComesFromTheEnvironment() async throws {
        let redis = try await RedisServerProcess(password: Self.password)

        // When room-server gets the URL on its command line and the password from ROOM_SERVER_CLUSTER_PASSWORD
        let (byPassword, first) = try await Self.roomServer(
            ["--cluster", "redis://127.0.0.1:\(redis.port)", "--node-id", "n1"],
            environment: ["ROOM_SERVER_CLUSTER_PASSWORD": Self.password])
        // Then it serves rooms through the Redis, the password nowhere on its command line
        let firstError = first == nil ? await byPassword.stderr : ""
        try await Self.joinThrough(try #require(first, "room-server exited: \(firstError)"), as: "alice")
        #expect(try !Self.commandLine(of: byPassword.processIdentifier).contains(Self.password))
        byPassword.send(SIGINT)
        #expect(try await byPassword.exitStatus() == 0)

        // When room-server gets the whole URL, password included, from ROOM_SERVER_CLUSTER_URL
        let (byURL, second) = try await Self.roomServer(
            ["--node-id", "n2"], environment: ["ROOM_SERVER_CLUSTER_URL": redis.url])
        // Then it is a node of that cluster too
        let secondError = second == nil ? await byURL.stderr : ""
        try await Self.joinThrough(try #require(second, "room-server exited: \(secondError)"), as: "bob")
        #expect(try !Self.commandLine(of: byURL.processIdentifier).contains(Self.password))
        byURL.send(SIGINT)
        #expect(try await byURL.exitStatus() == 0)
        await redis.stop()
    }

    @Test func aPasswordInTheURLAndInAFileIsAUsageError() async throws {
        let file = try Self.secretFile("other")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (server, url) = try await Self.roomServer(["--cluster", "redis://:x@127.0.0.1:1", "--cluster-password-file",
                                                       file])
        #expect(url == nil)
        #expect(try await server.exitStatus() == 2)
        #expect(await server.stderr.contains("--cluster-password-file"))
    }

    @Test func duringARedisOutageAClientIsNotToldWhereRedisIs() async throws {
        // Given a cluster node with a member on a shared object, then Redis gone
        let cluster = try await Cluster.start(nodes: 1)
        let alice = Member("alice", at: cluster.nodes[0])
        _ = try await alice.join()
        let rpc = alice.client.jsonRPCClient
        _ = try await rpc.call("sharedObject.connect", params: ["name": "room:demo/board"])
        await cluster.redis.stop()
        let address = "\(cluster.redis.port)"

        // When a join, a shared-object change and a shared-object connect need Redis
        let late = Member("late", at: cluster.nodes[0])
        try await late.client.connect()
        let join = await remoteError { _ = try await late.client.join() }
        let set = await remoteError {
            _ = try await rpc.call("sharedObject.set", params: ["name": "room:demo/board", "properties": ["a": 1]])
        }
        let open = await remoteError { _ = try await rpc.call("sharedObject.connect", params: ["name": "other"]) }

        // Then each says the cluster is unavailable, and none says where Redis is or what the socket said
        for (what, error) in [("join", join), ("set", set), ("connect", open)] {
            let error = try #require(error, "\(what) succeeded")
            let text = error.message + " " + (error.data?.jsonText ?? "")
            #expect(error.code == -32000 && error.message == "cluster unavailable", "\(what): \(text)")
            #expect(!text.contains("127.0.0.1") && !text.contains(address) && !text.contains("connect to"),
                    "\(what): \(text)")
        }
        await cluster.stop()
    }

    /// The remote error of a call that must fail.
    func remoteError(_ body: () async throws -> Void) async -> RPCErrorObject? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? RPCError)?.remoteError
        }
    }
}
