public import Dispatch
import Foundation
import SignalingSupport

/// SIGINT and SIGTERM for a client tool: neither kills the process at once, so that the tool can leave what it
/// joined and end its session first (docs: README, "Exit codes").
public enum ExitSignals {
    /// From now on the first SIGINT or SIGTERM is handed to `first` (the tool cleans up, then exits with
    /// ``exitCode(for:)``), and any later one exits the process at once with its own code: a user who presses Ctrl-C
    /// twice is never kept waiting. Returns the signal sources: keep them alive, and cancel them, for as long as
    /// that should hold. Call it first: a signal that comes before the sources are registered is lost.
    public static func catching(_ first: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        let (signals, sources) = ProcessSignals.stream([SIGINT, SIGTERM], label: "exit-signals")
        Task {
            var seen = false
            for await number in signals {
                if seen { exit(exitCode(for: number)) }
                seen = true
                first(number)
            }
        }
        return sources
    }

    /// The exit status after `signal`, as a shell reports a process it killed: 128 + the signal's number (130 for
    /// SIGINT, 143 for SIGTERM).
    public static func exitCode(for signal: Int32) -> Int32 { 128 + signal }
}
