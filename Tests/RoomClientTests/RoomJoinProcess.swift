import SignalingSupport
import TestSupport

/// One run of the built `room-join` binary: its stdout lines, its stderr and its exit status.
struct RoomJoinProcess {
    let status: Int32
    let stdout: [String]
    let stderr: String
    /// The peak resident memory seen while it ran, in KiB (0 unless asked for with `sampleMemory`).
    var peakMemoryKiB = 0

    /// Runs `room-join` with `arguments` until it exits (at most `timeout`; then it is killed).
    /// With `sampleMemory`, its peak resident memory is sampled while it runs.
    static func run(_ arguments: [String], timeout: Duration = .seconds(30), sampleMemory: Bool = false)
        async throws -> RoomJoinProcess
    {
        let child = try ChildProcess("room-join", arguments)
        let peak = sampleMemory ? child.samplePeakMemory() : LockedValue(0)
        let status = try await child.exitStatus(within: timeout)
        return RoomJoinProcess(status: status, stdout: await child.remainingLines(), stderr: await child.stderr,
                               peakMemoryKiB: peak.withLock { $0 })
    }
}
