import ArgumentParser
import Foundation
import SignalingSupport
import TestSupport

/// `kms-double [--port N] [--gc-period SECONDS]`: TestSupport's ``KurentoMediaServerDouble`` as a process, for
/// `make bench` and for trying a Kurento client where no Kurento Media Server can be installed. The first stdout line
/// is the URL to dial; a `stats` line on stdin answers a JSON line of its counters (``StatisticsCommand``); SIGINT or
/// SIGTERM stops it and exits 0.
struct KMSDoubleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kms-double",
        abstract: "A Kurento Media Server test double (Kurento protocol on ws://127.0.0.1:<port>/kurento).",
        discussion: """
            The first line on stdout is the URL to dial, e.g. ws://127.0.0.1:41234/kurento. Each line "stats" on \
            stdin is answered by one JSON line on stdout: live objects, pipelines, sessions, open and accepted \
            connections, the requests that ran by method and operation, replayed requests, events sent. SIGINT or \
            SIGTERM stops it (exit 0). Media is simulated: SDP answers and offers are real, no RTP is ever sent. \
            Exit codes: 0 stopped by a signal; 1 cannot listen; 2 usage error.
            """
    )

    @Option(help: "The port to listen on (127.0.0.1); 0 picks a free one (read the URL from stdout).")
    var port = 0

    @Option(name: .customLong("gc-period"),
            help: ArgumentHelp("The garbage collector's period in seconds (KMS: 240).", valueName: "seconds"))
    var gcPeriod = 240.0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535") }
        guard gcPeriod > 0, gcPeriod.isFinite else { throw ValidationError("--gc-period must be a positive number") }
    }

    func run() async throws {
        // Installed before listening, so no signal is missed; the sources live until `run` returns.
        let (stop, sources) = ProcessSignals.stream([SIGINT, SIGTERM], label: "kms-double.signals")
        defer { sources.forEach { $0.cancel() } }
        let double: KurentoMediaServerDouble
        do {
            double = try KurentoMediaServerDouble(configuration: .init(
                port: port, garbageCollectorPeriod: .milliseconds(Int((gcPeriod * 1000).rounded()))))
        } catch {
            FileHandle.standardError.write(Data("kms-double: cannot listen on 127.0.0.1:\(port): \(error)\n".utf8))
            throw ExitCode.failure
        }
        // Written straight to the file descriptor: unbuffered, so a reader sees the line at once.
        FileHandle.standardOutput.write(Data((double.url + "\n").utf8))
        StatisticsCommand.serve(double)
        for await _ in stop { break }
        double.stop()
    }
}

// A usage error is one line on stderr and exit status 2 (as the package's other tools); never a crash.
do {
    let command = try KMSDoubleCommand.parse()
    try await command.run()
} catch {
    let code = KMSDoubleCommand.exitCode(for: error)
    if code == .validationFailure {
        FileHandle.standardError.write(Data("kms-double: \(KMSDoubleCommand.message(for: error))\n".utf8))
        exit(2)
    }
    if code != .success {
        let message = KMSDoubleCommand.message(for: error)
        if !message.isEmpty { FileHandle.standardError.write(Data("kms-double: \(message)\n".utf8)) }
    }
    KMSDoubleCommand.exit(withError: error)
}
