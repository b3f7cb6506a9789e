import Foundation

/// Runs `python3` (found through `PATH`) for the Python witnesses of docs/testing.md#witnesses: `jsonschema` for the
/// schemas, `websockets` as a third-party client.
public enum Python {
    /// `nil` when `python3` can import `module`, otherwise why it cannot (with the pip command that fixes it).
    /// Costs one short python process.
    public static func missing(_ module: String) -> String? {
        switch try? run(["-c", "import \(module)"]) {
        case nil: return "python3 could not be started"
        case (0, _)?: return nil
        case let (_, output)?: return "python3 cannot import \(module) (pip install \(module)): \(output.prefix(200))"
        }
    }

    /// Runs `python3 arguments…` with no input and waits for it: the exit status and stdout and stderr together.
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdout = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
