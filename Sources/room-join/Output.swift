import Foundation
import JSONRPC

/// Where `room-join` writes: reports to stdout, one line each (readable, or JSON with `--json`), written straight
/// to the file descriptor so a reader sees each line at once; problems and logs to stderr.
struct Output {
    /// Whether reports are JSON lines.
    var json: Bool

    /// Writes `report` as one line, unless it has no readable text and the output is readable.
    func report(_ report: Report) {
        guard let line = json ? report.jsonLine : report.text else { return }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes `text` to stderr; with `--json` it is also an `error` report on stdout.
    func error(_ text: String) {
        FileHandle.standardError.write(Data(("room-join: " + text + "\n").utf8))
        if json { report(Report(event: "error", fields: ["message": .string(text)])) }
    }
}
