import Foundation
import JSONRPC

/// Where a command-line tool writes: reports to stdout, one line each (readable, or JSON with `--json`), written
/// straight to the file descriptor so a reader sees each line at once; problems and logs to stderr.
public struct Output: Sendable {
    /// The tool's name, the prefix of its stderr lines.
    public var tool: String
    /// Whether reports are JSON lines.
    public var json: Bool

    /// Creates an output for `tool`.
    public init(tool: String, json: Bool) {
        self.tool = tool
        self.json = json
    }

    /// Writes `report` as one line, unless it has no readable text and the output is readable.
    public func report(_ report: Report) {
        guard let line = json ? report.jsonLine : report.text else { return }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes `text` to stderr; with `--json` it is also an `error` report on stdout.
    public func error(_ text: String) {
        FileHandle.standardError.write(Data((tool + ": " + text + "\n").utf8))
        if json { report(Report(event: "error", fields: ["message": .string(text)])) }
    }
}
