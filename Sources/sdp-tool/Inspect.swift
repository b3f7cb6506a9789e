import ArgumentParser
import Foundation
import SDP

/// `sdp-tool inspect FILE|-`.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarize a session description: sections, codecs, ICE/DTLS parameters, candidates, groups.",
        discussion: """
            Reads FILE, or standard input when FILE is '-'. Parsing is strict unless --lenient is given; invalid
            input exits with status 1 and prints 'line N: reason' on standard error. With --json the typed
            accessors are printed as one JSON object (Schemas/sdp-tool-inspect.schema.json).

            What parses may still trip a peer; these are reported as 'warning: …' on standard error: a mid on more \
            than one m-line (RFC 5888), an a=rtpmap without a clock rate (RFC 8866 §6.6), an ice-ufrag shorter \
            than 4 or an ice-pwd shorter than 22 characters, or either longer than 256 (RFC 8839 §5.4). With \
            --strict they are errors ('error: …', exit 1, nothing printed on standard output).
            """
    )

    @Argument(help: "The SDP file to read, or '-' for standard input.")
    var file: String

    @Flag(help: "Print the typed accessors as JSON instead of a readable summary.")
    var json = false

    @Flag(help: "Accept unknown or malformed lines (reported as warnings on standard error).")
    var lenient = false

    @Flag(help: "Make the lint warnings errors: exit 1 when the description has any.")
    var strict = false

    func validate() throws {
        if strict, lenient { throw ValidationError("--strict and --lenient contradict each other") }
    }

    func run() throws {
        let text = try InputReader.text(of: file)
        let result: SDPParser.Result
        do {
            result = try SDPParser.parse(text, mode: lenient ? .lenient : .strict)
        } catch {
            InputReader.fail(error.description)
        }
        for warning in result.warnings { InputReader.warn("warning: \(warning)") }
        let findings = Lint.findings(in: result.description)
        for finding in findings { InputReader.warn((strict ? "error: " : "warning: ") + finding) }
        if strict, !findings.isEmpty { throw ExitCode(1) }
        let summary = SDPSummary(result.description)
        if json {
            try Self.printJSON(summary)
        } else {
            print(SummaryText.render(summary), terminator: "")
        }
    }
}

extension Inspect {
    /// Prints `summary` as pretty, key-sorted JSON.
    static func printJSON(_ summary: SDPSummary) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(summary), as: UTF8.self))
    }
}

/// Reading input and reporting failures, shared by the subcommands.
enum InputReader {
    /// Reads and strictly parses `path`; invalid input exits 1 with `path: line N: reason`.
    static func parse(_ path: String) throws -> SessionDescription {
        do {
            return try SessionDescription(parsing: text(of: path))
        } catch let error as SDPParseError {
            fail("\(path): \(error)")
        }
    }

    /// The contents of `path`, or of standard input for `-`; a file that cannot be read exits 1 with
    /// `cannot read 'path': <the system's reason>`.
    static func text(of path: String) throws -> String {
        let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : contents(of: path)
        guard let text = String(data: data, encoding: .utf8) else { fail("input is not UTF-8") }
        return text
    }

    /// The bytes of the file at `path`; when it cannot be opened or read, exits 1 naming errno's reason.
    static func contents(of path: String) -> Data {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { fail("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            fail("cannot read '\(path)': \(String(cString: strerror(EISDIR)))")
        }
        do {
            return try file.readToEnd() ?? Data()
        } catch {
            fail("cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Prints `message` on standard error and exits with status 1.
    static func fail(_ message: String) -> Never {
        warn(message)
        exit(1)
    }
}
