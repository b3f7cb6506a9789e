import TestSupport

/// One run of the built `room-join` binary: its stdout lines, its stderr and its exit status.
struct RoomJoinProcess {
    let status: Int32
    let stdout: [String]
    let stderr: String

    /// Runs `room-join` with `arguments` until it exits (at most `timeout`; then it is killed).
    static func run(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> RoomJoinProcess {
        let child = try ChildProcess("room-join", arguments)
        let status = try await child.exitStatus(within: timeout)
        return RoomJoinProcess(status: status, stdout: await child.remainingLines(), stderr: await child.stderr)
    }
}
