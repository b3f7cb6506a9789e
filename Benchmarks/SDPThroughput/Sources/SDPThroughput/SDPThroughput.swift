import Foundation
import SDP

/// Parses and serializes one SDP file many times and prints the rate.
///
/// Usage: `SDPThroughput [FILE] [ITERATIONS]`; FILE defaults to the Chrome-shaped offer of the SDP tests.
@main
enum SDPThroughput {
    static func main() throws {
        let arguments = CommandLine.arguments
        let defaultFile = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../../../Tests/SDPTests/Fixtures/chrome-offer.sdp")
            .standardizedFileURL.path
        let path = arguments.count > 1 ? arguments[1] : defaultFile
        let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 20_000 : 20_000
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
            exit(1)
        }
        let text = String(decoding: data, as: UTF8.self)
        let check = try SessionDescription(parsing: text)
        precondition(check.serialized() == text, "the input must round-trip")

        var bytes = 0
        for _ in 0..<1_000 { bytes &+= try SessionDescription(parsing: text).serialized().utf8.count }  // warm-up
        var runs: [Double] = []
        for _ in 0..<5 {
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<iterations { bytes &+= try SessionDescription(parsing: text).serialized().utf8.count }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            runs.append(Double(iterations) / seconds)
        }
        runs.sort()
        let median = runs[runs.count / 2]
        let megabytes = median * Double(data.count) / 1_000_000
        print("\(path): \(data.count) bytes, \(check.media.count) sections, \(check.lines.count + check.media.reduce(0) { $0 + $1.lines.count + 1 }) lines")
        print(String(format: "parse+serialize: median %.0f descriptions/s (%.1f MB/s, %.1f µs each); runs %@",
                     median, megabytes, 1e6 / median, runs.map { String(format: "%.0f", $0) }.joined(separator: " ")))
        if bytes == 42 { print("") }  // keep the work observable
    }
}
