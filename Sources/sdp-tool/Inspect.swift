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
            """
    )

    @Argument(help: "The SDP file to read, or '-' for standard input.")
    var file: String

    @Flag(help: "Print the typed accessors as JSON instead of a readable summary.")
    var json = false

    @Flag(help: "Accept unknown or malformed lines (reported as warnings on standard error).")
    var lenient = false

    func run() throws {
        let text = try InputReader.text(of: file)
        let result: SDPParser.Result
        do {
            result = try SDPParser.parse(text, mode: lenient ? .lenient : .strict)
        } catch {
            InputReader.fail(error.description)
        }
        for warning in result.warnings { InputReader.warn("warning: \(warning)") }
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

    /// The contents of `path`, or of standard input for `-`.
    static func text(of path: String) throws -> String {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw ValidationError("cannot read '\(path)'")
            }
            data = contents
        }
        guard let text = String(data: data, encoding: .utf8) else { fail("input is not UTF-8") }
        return text
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
