import Foundation

/// A `redis-server` of the test's own on 127.0.0.1 and a free port, without persistence (`--save ""
/// --appendonly no`), stopped by pid. It can be paused (SIGSTOP: a Redis that accepts nothing and answers
/// nothing, like one cut off by a partition), resumed, killed and started again on the same port.
public final class RedisServerProcess: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `restart()`, which a test calls from one task.

    /// `redis-server` is not installed (`make deps` installs it).
    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "redis-server is not installed (make deps installs it)" }
    }

    /// Where it is installed, if it is.
    public static let executable = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Its TCP port.
    public let port: Int
    /// `requirepass`, if any.
    public let password: String?
    private var process: Process

    /// `redis://[:password@]127.0.0.1:port`.
    public var url: String { "redis://\(password.map { ":\($0)@" } ?? "")127.0.0.1:\(port)" }

    /// Starts one and waits until it answers.
    public init(password: String? = nil) async throws {
        guard Self.executable != nil else { throw Missing() }
        self.password = password
        // The port is free when the kernel hands it out; another process may take it before redis-server binds it,
        // so a server that exits at once is started again on another port.
        var (port, process) = try Self.launchOnFreePort(password: password)
        for _ in 0..<4 where !Self.listens(port: port, process: process) {
            process.terminate()
            (port, process) = try Self.launchOnFreePort(password: password)
        }
        self.port = port
        self.process = process
        try await waitUntilReady()
    }

    private static func launchOnFreePort(password: String?) throws -> (Int, Process) {
        let port = try freePort()
        return (port, try launch(port: port, password: password))
    }

    /// Whether `process` came up listening on `port` within a second (synchronous: only the start-up waits here).
    private static func listens(port: Int, process: Process) -> Bool {
        for _ in 0..<200 {
            if accepts(port) { return true }
            if !process.isRunning { return false }
            usleep(5_000)
        }
        return false
    }

    deinit { kill(SIGKILL) }

    /// Sends `signal` to the server.
    public func kill(_ signal: Int32) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }

    /// Kills it (SIGKILL) and waits until it has exited.
    public func stop() async {
        kill(SIGCONT)
        kill(SIGKILL)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
    }

    /// Starts it again on the same port (after ``stop()``), empty, and waits until it answers.
    public func restart() async throws {
        process = try Self.launch(port: port, password: password)
        try await waitUntilReady()
    }

    private static func launch(port: Int, password: String?) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable!)
        var arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                         "--protected-mode", "no", "--loglevel", "warning", "--daemonize", "no"]
        if let password { arguments += ["--requirepass", password] }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until the port takes connections (and the process is still up).
    private func waitUntilReady() async throws {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(10) * deadlineScale {
            guard process.isRunning else { throw DeadlineExceeded(what: "redis-server on port \(port) exited", timeout: .zero) }
            if Self.accepts(port) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw DeadlineExceeded(what: "redis-server on port \(port) to listen", timeout: .seconds(10))
    }

    /// Whether 127.0.0.1:`port` accepts a TCP connection.
    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A port the kernel has just handed out for 127.0.0.1 (closed again: redis-server binds it next).
    private static func freePort() throws -> Int {
        let (fd, port) = try SilentTCPListener.listeningSocket(backlog: 1)
        close(fd)
        return port
    }
}
