import Foundation
import TestSupport

/// The built `jsonrpc-echo-server` example, running as a child process for third-party client tests.
struct ExampleServerProcess: Sendable {
    /// The URL from the server's first stdout line.
    let url: String
    let process: Process
    /// Finishes when the process has exited.
    let exited: AsyncStream<Void>

    /// The example's executable: a product of the same build, next to the test bundle.
    static var executable: URL {
        let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return testBinary.deletingLastPathComponent().appendingPathComponent("jsonrpc-echo-server")
    }

    /// Starts the example with `arguments` and waits (at most 30 s) for the URL line.
    static func launch(_ arguments: [String] = ["--port", "0"]) async throws -> ExampleServerProcess {
        struct NotBuilt: Error, CustomStringConvertible {
            let path: String
            var description: String { "\(path) is missing: `swift build --build-tests` builds it" }
        }
        guard FileManager.default.isExecutableFile(atPath: executable.path) else { throw NotBuilt(path: executable.path) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        let (exited, exit) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exit.finish() }
        try process.run()
        let lines = Self.lines(of: stdout.fileHandleForReading)
        do {
            let url = try await withDeadline(.seconds(30), "the example's URL line") {
                for await line in lines { return line }
                throw DeadlineExceeded(what: "a URL line before the example exited", timeout: .zero)
            }
            return ExampleServerProcess(url: url, process: process, exited: exited)
        } catch {
            _ = try? await ExampleServerProcess(url: "", process: process, exited: exited).stop()  // no orphan
            throw error
        }
    }

    /// Sends `signal` and waits (at most 10 s) for the process to exit; returns how it ended.
    func stop(signal: Int32 = SIGTERM) async throws -> (reason: Process.TerminationReason, status: Int32) {
        kill(process.processIdentifier, signal)
        try await withDeadline(.seconds(10), "the example to exit") { for await _ in exited {} }
        return (process.terminationReason, process.terminationStatus)
    }

    /// The lines written to `handle`, read on a thread of their own until end of file.
    private static func lines(of handle: FileHandle) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        Thread.detachNewThread {
            var buffer = Data()
            while case let chunk = handle.availableData, !chunk.isEmpty {
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: buffer[..<newline], as: UTF8.self))
                    buffer.removeSubrange(...newline)
                }
            }
            continuation.finish()
        }
        return stream
    }
}
