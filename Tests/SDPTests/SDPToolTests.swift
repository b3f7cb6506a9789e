import Foundation
import SDP
import TestSupport
import Testing

/// Runs the built `sdp-tool` binary (it sits next to the test bundle in the build folder).
enum SDPToolBinary {
    static var url: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("sdp-tool")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return SchemaValidation.packageRoot.appendingPathComponent(".build/debug/sdp-tool")
    }

    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: Data? = nil) throws -> Output {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }
}

@Suite struct SDPToolTests {
    @Test(.enabled(if: SDPFiles.corpusShouldRun, "sdp-transform corpus not found at ../shared/fixtures/sdp-transform; skipped"))
    func inspectJSONOnEveryCorpusFileMatchesTheAccessorsAndThePins() throws {
        var jsonLines: [Data] = []
        for name in try SDPFiles.corpusValidFileNames() {
            let output = try SDPToolBinary.run(["inspect", "--json", SDPFiles.corpusDirectory.appendingPathComponent(name).path])
            #expect(output.status == 0, "\(name): \(output.stderr)")
            let summary = try JSONDecoder().decode(SDPSummary.self, from: output.stdout)
            #expect(summary == SDPSummary(try SDPFiles.corpus(name)), "\(name)")
            if let pin = CorpusPin.all.first(where: { $0.file == name }) { pin.expect(matches: summary) }
            jsonLines.append(try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: output.stdout)))
        }
        #expect(CorpusPin.all.count >= 6)
        try SchemaWitness.validate(jsonLines, against: "sdp-tool-inspect.schema.json")
    }

    @Test func inspectReadsStandardInputAndSummarizesSections() throws {
        let text = try SDPFiles.fixtureText("chrome-offer.sdp")
        let output = try SDPToolBinary.run(["inspect", "-"], stdin: Data(text.utf8))
        let summary = String(decoding: output.stdout, as: UTF8.self)
        #expect(output.status == 0)
        #expect(summary.contains("group BUNDLE: 0 1 2"))
        #expect(summary.contains("m[1] video mid=1 sendonly port 9 UDP/TLS/RTP/SAVPF [rtcp-mux]"))
        #expect(summary.contains("simulcast send q;h;f"))
        #expect(summary.contains("candidates (4):"))
    }

    @Test func invalidInputExitsOneWithLineAndReason() throws {
        let output = try SDPToolBinary.run(["inspect", "-"], stdin: Data("v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nf=x\r\n".utf8))
        #expect(output.status == 1)
        #expect(output.stderr == "line 4: unknown line type 'f='\n")
        #expect(output.stdout.isEmpty)
    }

    @Test func lenientInspectWarnsAndSucceeds() throws {
        let output = try SDPToolBinary.run(["inspect", "--lenient", "--json", "-"], stdin: Data("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nf=x\n".utf8))
        #expect(output.status == 0)
        #expect(output.stderr == "warning: line 4: unknown line type 'f='\n")
    }

    @Test func candidateSubcommandExplainsTheFields() throws {
        let output = try SDPToolBinary.run(["candidate", "a=candidate:4 1 TCP 1688207359 192.0.2.3 9 typ srflx raddr 10.0.1.1 rport 9 tcptype active"])
        let text = String(decoding: output.stdout, as: UTF8.self)
        #expect(output.status == 0)
        #expect(text.contains("type             srflx"))
        #expect(text.contains("related address  10.0.1.1"))
        #expect(text.contains("tcptype          active"))
        #expect(text.contains("transport        tcp"))
    }

    @Test func invalidCandidateExitsOneWithTheReason() throws {
        let output = try SDPToolBinary.run(["candidate", "candidate:1 1 udp 100 192.0.2.1 65536 typ host"])
        #expect(output.status == 1)
        #expect(output.stderr == "invalid candidate: port '65536' is not 0…65535\n")
    }
}

/// Validates JSON documents with Python `jsonschema`, an independent witness (docs/testing.md#witnesses): one process
/// for all documents, fed as JSON lines. Skips without Python/jsonschema, fails under `CI=true`.
enum SchemaWitness {
    static func validate(_ documents: [Data], against schemaName: String) throws {
        let schema = SchemaValidation.packageRoot.appendingPathComponent("Schemas/\(schemaName)").path
        let script = """
            import json, sys, jsonschema
            validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            bad = 0
            for number, line in enumerate(sys.stdin, 1):
                for error in validator.iter_errors(json.loads(line)):
                    bad += 1
                    print(f"document {number}: {list(error.path)}: {error.message}")
            sys.exit(1 if bad else 0)
            """
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import jsonschema"]
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else {
            if isCI { Issue.record("python3 with jsonschema is required under CI") }
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        for document in documents { input.fileHandleForWriting.write(document + Data("\n".utf8)) }
        try input.fileHandleForWriting.close()
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "schema violations:\n\(report)")
    }
}
