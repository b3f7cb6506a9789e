public import ArgumentParser
import Foundation

extension AsyncParsableCommand {
    /// The exit status of a usage error (an unknown, missing or invalid option or argument) for every tool of the
    /// package: 2, as POSIX utilities use, where ArgumentParser's default `main()` exits 64.
    public static var usageErrorExitCode: ExitCode { ExitCode(2) }

    /// Parses and runs the command as ArgumentParser's default `main()` does, except that a usage error prints
    /// its message and the usage on stderr and exits with ``usageErrorExitCode``. Call it from the tool's own
    /// `static func main() async`.
    public static func mainExitingTwoOnUsageErrors() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: usageErrorExitCode)
            }
            exit(withError: error)
        }
    }
}
