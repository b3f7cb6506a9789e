import Foundation
import TestSupport
import Testing

/// The built `kms-double` binary (a Kurento Media Server double in a process of its own), the URL its first stdout
/// line names, and its `stats` command.
struct KMSDoubleProcess {
    let child: ChildProcess
    let url: String

    /// Starts it on `port` of 127.0.0.1; 0 picks a free one.
    static func start(port: Int = 0) async throws -> KMSDoubleProcess {
        let child = try ChildProcess("kms-double", ["--port", String(port)], writableInput: true)
        let url = try await child.nextLine() ?? ""
        if !url.hasPrefix("ws://") {
            let stderr = await child.stderr
            Issue.record("kms-double printed no URL: \(stderr)")
        }
        return KMSDoubleProcess(child: child, url: url)
    }

    /// The port it listens on.
    var port: Int { RawHTTPClient.port(of: url) ?? 0 }

    /// Its statistics now (objects, connections, requests), as its `stats` command answers them.
    func statistics() async throws -> KurentoMediaServerDouble.Statistics {
        try child.write("stats\n")
        let line = try #require(try await child.nextLine(), "kms-double's stdout ended")
        return try JSONDecoder().decode(KurentoMediaServerDouble.Statistics.self, from: Data(line.utf8))
    }

    /// Stops it with SIGTERM; its exit status.
    func stop() async throws -> Int32 {
        child.send(SIGTERM)
        return try await child.exitStatus()
    }
}
