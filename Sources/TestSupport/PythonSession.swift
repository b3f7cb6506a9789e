import Foundation

/// A python3 witness script spoken to line by line over stdio, for witnesses that take several turns (the
/// dashboard's headless browser, docs/testing.md#witnesses): each ``send(_:)`` writes one command line, and each
/// ``nextLine()`` reads one answer line. The script bounds every wait of its own with a deadline and answers
/// `fail …` when it passes, so a read never waits longer than the script's own deadlines; reads run on a thread of
/// their own, never on the cooperative pool.
public final class PythonSession: Sendable {
    private let process: Process
    private let input: FileHandle
    private let output: LineReader

    /// Starts `python3 script arguments…`; its stderr goes to ours.
    public init(script: String, arguments: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        self.process = process
        self.input = input.fileHandleForWriting
        self.output = LineReader(output.fileHandleForReading)
    }

    /// Writes `line` and a line break to the script's stdin.
    public func send(_ line: String) throws {
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The script's next stdout line, without its line break; `nil` once its stdout has ended (it exited).
    public func nextLine() async -> String? {
        let output = output
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: output.next()) }
        }
    }

    /// Closes its stdin and waits for it to exit; its exit status.
    @discardableResult
    public func finish() async -> Int32 {
        try? input.close()
        let process = process
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    /// Ends the script (SIGTERM, so that it can stop the browser or server it started), e.g. when a test fails
    /// halfway; SIGKILL when it is still running 2 s later: a script started from a thread that blocks SIGTERM
    /// inherits that mask and would never see the first signal.
    public func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        let process = process
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 2)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
}

/// Lines of a pipe, read with blocking reads (from one thread at a time).
private final class LineReader: @unchecked Sendable {
    // @unchecked: `buffer` is touched only by `next()`, which PythonSession calls from one read at a time.
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            buffer.append(chunk)
        }
    }
}

/// The headless browser of the dashboard test: Debian's `chromium` (`make deps` installs it).
public enum Chromium {
    /// Its path: `KS_CHROMIUM` when set, else the first of `chromium` and `chromium-browser` found on `PATH`;
    /// `nil` when there is none.
    public static let executable: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["KS_CHROMIUM"], !path.isEmpty { return path }
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
                return directory + "/" + name
            }
        }
        return nil
    }()
}
