public import Foundation
public import SignalingSupport

/// A product of this package's build (an executable next to the test bundle) run as a child process. Its stdout
/// arrives line by line as it is written, its stderr is kept whole; both pipes are read on threads of their own,
/// never on the cooperative pool.
public final class ChildProcess: Sendable {
    /// The product was not built.
    public struct NotBuilt: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) is missing: `swift build --build-tests` builds it" }
    }

    private let process: Process
    private let input: FileHandle?
    private let stdoutLines: AsyncStream<String>
    private let stderrText: Task<String, Never>
    private let stderrRead = LockedValue(Data())
    private let status: Task<Int32, Never>

    /// Where the build put `product`: next to the test binary.
    public static func executable(_ product: String) -> URL {
        let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return testBinary.deletingLastPathComponent().appendingPathComponent(product)
    }

    /// Launches `product` with `arguments`. Its stdin is empty, or with `writableInput` a pipe that ``write(_:)``
    /// feeds and ``closeInput()`` ends. `environment` adds to (or replaces in) the test process's environment.
    public convenience init(_ product: String, _ arguments: [String], writableInput: Bool = false,
                            environment: [String: String] = [:]) throws {
        let executable = Self.executable(product)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw NotBuilt(path: executable.path)
        }
        try self.init(executable: executable, arguments, writableInput: writableInput, environment: environment)
    }

    /// Launches the program at `executable`, built elsewhere than this package's build (another package's, such as
    /// Examples/Embedding); otherwise as ``init(_:_:writableInput:environment:)``.
    public init(executable: URL, _ arguments: [String], writableInput: Bool = false,
                environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        let out = Pipe(), err = Pipe()
        let inputPipe = writableInput ? Pipe() : nil
        if let inputPipe { process.standardInput = inputPipe } else { process.standardInput = FileHandle.nullDevice }
        input = inputPipe?.fileHandleForWriting
        process.standardOutput = out
        process.standardError = err
        let (exited, exit) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exit.yield(process.terminationStatus)
            exit.finish()
        }
        try process.run()
        status = Task { await exited.first { _ in true } ?? -1 }
        stdoutLines = Self.lines(of: out.fileHandleForReading)
        let (errText, errContinuation) = AsyncStream<String>.makeStream()
        let errHandle = err.fileHandleForReading
        let errRead = stderrRead
        Thread.detachNewThread {
            while case let chunk = errHandle.availableData, !chunk.isEmpty {
                errRead.withLock { $0.append(chunk) }
            }
            errContinuation.yield(String(decoding: errRead.withLock { $0 }, as: UTF8.self))
            errContinuation.finish()
        }
        stderrText = Task { await errText.first { _ in true } ?? "" }
    }

    /// A process nobody waited for does not outlive its test.
    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// The next stdout line, waiting at most `timeout`; `nil` once stdout is closed.
    public func nextLine(within timeout: Duration = .seconds(10)) async throws -> String? {
        try await withDeadline(timeout, "a line from \(name)") { [stdoutLines] in
            await stdoutLines.first { _ in true }
        }
    }

    /// The stdout lines not read yet, up to the end of stdout (call it once the process has exited).
    public func remainingLines() async -> [String] {
        var lines: [String] = []
        for await line in stdoutLines { lines.append(line) }
        return lines
    }

    /// Everything written to stderr, once it is closed.
    public var stderr: String { get async { await stderrText.value } }

    /// What the process has written to stderr so far (with ``waitUntil(_:timeout:_:)``, to wait for a log line).
    public var stderrSoFar: String { String(decoding: stderrRead.withLock { $0 }, as: UTF8.self) }

    private var name: String { process.executableURL?.lastPathComponent ?? "the process" }

    /// Writes `text` to the process's stdin (made with `writableInput`; small writes do not block).
    public func write(_ text: String) throws {
        try input?.write(contentsOf: Data(text.utf8))
    }

    /// Closes the process's stdin: it reads end of input.
    public func closeInput() throws {
        try input?.close()
    }

    /// Sends `signal` (e.g. `SIGINT`) to the process.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The process id (for reading `/proc/<pid>/…`).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// The process's peak resident memory so far (`VmHWM` in `/proc/<pid>/status`, a high-water mark the kernel
    /// keeps), in KiB; `nil` once the process is gone.
    public var peakResidentMemoryKiB: Int? { Self.peakResidentMemoryKiB(of: process.processIdentifier) }

    /// Starts sampling the process's peak resident memory (``peakResidentMemoryKiB``) every 2 ms on a thread of its
    /// own until the process is gone; the box holds the largest value seen, in KiB. Growth in the last 2 ms before
    /// the exit can be missed, so assert generous bounds only.
    public func samplePeakMemory() -> LockedValue<Int> {
        let peak = LockedValue(0)
        let pid = process.processIdentifier
        Thread.detachNewThread {
            while let kib = Self.peakResidentMemoryKiB(of: pid) {
                peak.withLock { $0 = max($0, kib) }
                usleep(2000)
            }
        }
        return peak
    }

    /// `VmHWM` of process `pid`, in KiB (0 when the line is missing); `nil` when it is gone or a zombie.
    private static func peakResidentMemoryKiB(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              !status.contains("State:\tZ")
        else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first ?? "") ?? 0
    }

    /// Waits at most `timeout` for the process to exit and returns its status; past the deadline the process is
    /// killed (SIGKILL) and ``DeadlineExceeded`` is thrown.
    public func exitStatus(within timeout: Duration = .seconds(10)) async throws -> Int32 {
        do {
            return try await withDeadline(timeout, "\(name) to exit") { [self] in
                await withTaskCancellationHandler { await status.value } onCancel: { send(SIGKILL) }
            }
        } catch var missed as DeadlineExceeded {
            // Killed by now: say what it printed on stderr last, so that a hang can be diagnosed from the log.
            let tail = await stderr.split(separator: "\n").suffix(30).joined(separator: "\n")
            missed.what += tail.isEmpty ? " (nothing on stderr)" : "; its stderr ended with:\n\(tail)"
            throw missed
        }
    }

    /// `handle` split into lines, read on a thread of its own as the data arrives.
    private static func lines(of handle: FileHandle) -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        Thread.detachNewThread {
            var pending = Data()
            while case let chunk = handle.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { continuation.yield(String(decoding: pending, as: UTF8.self)) }
            continuation.finish()
        }
        return lines
    }
}
