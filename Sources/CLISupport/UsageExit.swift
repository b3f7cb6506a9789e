public import ArgumentParser
import Foundation

extension AsyncParsableCommand {
    /// The exit status of a usage error (an unknown, missing or invalid option or argument) for every tool of the
    /// package: 2, as POSIX utilities use, where ArgumentParser's default `main()` exits 64.
    public static var usageErrorExitCode: ExitCode { ExitCode(2) }

    /// Parses and runs the command as ArgumentParser's default `main()` does, except that a usage error prints one
    /// line on stderr, `<tool>: <what is wrong> (see <tool> --help)`, and exits with ``usageErrorExitCode``. Call it
    /// from the tool's own `static func main() async`.
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
                FileHandle.standardError.write(Data((usageErrorLine(for: error) + "\n").utf8))
                exit(withError: usageErrorExitCode)
            }
            exit(withError: error)
        }
    }

    /// The one line a usage error prints: the tool, what is wrong (ArgumentParser's message, its lines joined), and
    /// where the usage is.
    static func usageErrorLine(for error: any Error) -> String {
        let tool = configuration.commandName ?? "\(Self.self)"
        let message = message(for: error).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
        return "\(tool): \(message) (see \(tool) --help)"
    }
}
