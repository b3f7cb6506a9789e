import Foundation
import TestSupport

/// `kms-double`'s standard input: one command a line, each answered by one JSON line on stdout. `stats` answers the
/// double's ``KurentoMediaServerDouble/Statistics`` (keys sorted); anything else answers `{"error": "…"}`. The end
/// of input ends the reading, not the double.
enum StatisticsCommand {
    /// Reads commands on a thread of its own until stdin ends.
    static func serve(_ double: KurentoMediaServerDouble) {
        Thread.detachNewThread {
            while let line = readLine() {
                let command = line.trimmingCharacters(in: .whitespaces)
                let answer = command == "stats" ? encode(double.statistics()) : encode(["error": "unknown command \(command)"])
                // Straight to the file descriptor: unbuffered, so the reader sees the line at once.
                FileHandle.standardOutput.write(answer + Data("\n".utf8))
            }
        }
    }

    private static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)) ?? Data(#"{"error":"cannot encode"}"#.utf8)
    }
}
