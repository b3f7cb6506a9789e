import Foundation

/// A python3 script spoken to over stdio in two turns, as the aiortc witnesses are (docs/testing.md#witnesses): the
/// script writes a first part ending with a marker line, reads our reply until end of file, then writes its verdict.
public final class PythonDialogue {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    /// Starts `python3 script arguments…`; its stderr goes to ours.
    public init(script: String, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Reads stdout up to the line `marker` and returns what came before it; `nil` when the script's output
    /// ended first.
    public func read(until marker: String) -> String? {
        let line = Data((marker + "\n").utf8)
        while buffer.range(of: line) == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
        guard let range = buffer.range(of: line) else { return nil }
        defer { buffer.removeSubrange(..<range.upperBound) }
        return String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
    }

    /// Writes `reply` to stdin and closes it, waits for the script to exit, and returns the rest of its stdout,
    /// trimmed.
    public func finish(with reply: String) throws -> String {
        input.fileHandleForWriting.write(Data(reply.utf8))
        try input.fileHandleForWriting.close()
        buffer.append(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        return String(decoding: buffer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
