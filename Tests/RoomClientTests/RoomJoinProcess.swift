import Foundation
import TestSupport

/// One run of the built `room-join` binary (a product of the same build, next to the test bundle): its stdout
/// lines, its stderr and its exit status.
struct RoomJoinProcess {
    struct NotBuilt: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: `swift build --build-tests` builds it" }
    }

    let status: Int32
    let stdout: [String]
    let stderr: String

    static var executable: URL {
        let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return testBinary.deletingLastPathComponent().appendingPathComponent("room-join")
    }

    /// Runs `room-join` with `arguments` until it exits (at most `timeout`; then it is killed).
    static func run(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> RoomJoinProcess {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw NotBuilt(path: executable.path)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let (exited, exit) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exit.finish() }
        try process.run()
        let stdout = read(out.fileHandleForReading), stderr = read(err.fileHandleForReading)
        do {
            try await withDeadline(timeout, "room-join to exit") { for await _ in exited {} }
        } catch {
            process.terminate()
            throw error
        }
        let text = await stdout.value
        return RoomJoinProcess(status: process.terminationStatus,
                               stdout: text.split(separator: "\n").map(String.init), stderr: await stderr.value)
    }

    /// Everything written to `handle`, read on a thread of its own until end of file.
    private static func read(_ handle: FileHandle) -> Task<String, Never> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        Thread.detachNewThread {
            continuation.yield(String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
            continuation.finish()
        }
        return Task { await stream.first { _ in true } ?? "" }
    }
}
