import Foundation
import Testing
import TestSupport

/// Every executable product of the package (read from Package.swift, so that a new one is covered without a change
/// here), run as a user would: `--help` prints the usage on stdout and exits 0 without starting anything, and a usage
/// error is one line on stderr and exit status 2 (README's exit-code table).
@Suite struct EveryExecutableCLITests {
    /// The names of the `.executable(name: …)` products in Package.swift.
    static let executables: [String] = {
        let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Package.swift")
        let text = (try? String(contentsOf: manifest, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: ".executable(name: \"") else { return nil }
            return line[start.upperBound...].split(separator: "\"").first.map(String.init)
        }
    }()

    @Test func thePackageHasItsExecutables() {
        // A guard against the manifest reading above finding nothing: then the tests below would pass vacuously.
        #expect(Self.executables.count >= 10, "\(Self.executables)")
        #expect(Self.executables.contains("room-chat") && Self.executables.contains("sdp-tool"))
    }

    @Test(arguments: executables)
    func helpPrintsTheUsageOnStdoutAndExitsZero(_ executable: String) async throws {
        let process = try ChildProcess(executable, ["--help"])
        // A server that started instead would not exit: the deadline fails the test and kills it.
        let status = try await process.exitStatus(within: .seconds(10))
        let stdout = await process.remainingLines().joined(separator: "\n"), stderr = await process.stderr
        #expect(status == 0, "\(executable) --help: \(stderr)")
        #expect(stdout.contains("USAGE: \(executable)"), "\(executable) --help printed: \(stdout)")
        #expect(stderr.isEmpty, "\(executable) --help wrote on stderr: \(stderr)")
    }

    @Test(arguments: executables)
    func aUsageErrorIsOneLineAndExitsTwo(_ executable: String) async throws {
        let process = try ChildProcess(executable, ["--no-such-option"])
        let status = try await process.exitStatus(within: .seconds(10))
        let stdout = await process.remainingLines(), stderr = await process.stderr
        #expect(status == 2, "\(executable) --no-such-option: \(stderr)")
        #expect(stderr.hasPrefix("\(executable): "), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(executable) wrote more than one line: \(stderr)")
        #expect(stdout.isEmpty, "\(executable) wrote on stdout: \(stdout)")
    }
}
