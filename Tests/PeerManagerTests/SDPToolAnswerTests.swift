import Foundation
import PeerManager
import SDP
import TestSupport
import Testing

/// `sdp-tool answer` and `sdp-tool check-answer`, run as the built binary.
@Suite struct SDPToolAnswerTests {
    static var tool: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sdp-tool")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return SchemaValidation.packageRoot.appendingPathComponent(".build/debug/sdp-tool")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func write(_ description: SessionDescription, _ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sdp-tool-\(UUID().uuidString)-\(name).sdp")
        try Data(description.serialized().utf8).write(to: url)
        return url.path
    }

    @Test func answerVerbPrintsAnAnswerThatCheckAnswerAccepts() throws {
        let offerPath = SDPFiles.fixturesDirectory.appendingPathComponent("firefox-offer.sdp").path
        let answer = try Self.run(["answer", offerPath, "--reject", "video", "--seed", "5"])
        #expect(answer.status == 0)
        let parsed = try SessionDescription(parsing: answer.output)
        #expect(parsed.media.map(\.port) == [9, 0])
        let answerPath = try Self.write(parsed, "answer")
        let check = try Self.run(["check-answer", offerPath, answerPath])
        #expect(check.status == 0)
        #expect(check.output == "ok: the answer satisfies every rule\n")
    }

    @Test(arguments: AnswerCheckerTests.breakages)
    func checkAnswerFlagsEachBrokenAnswer(_ breakage: AnswerCheckerTests.Breakage) throws {
        var offer = try SDPFiles.fixture("chrome-offer.sdp")
        var answer = AnswerBuilderTests.answer(offer)
        breakage.offer(&offer)
        breakage.answer(&answer)
        let result = try Self.run(["check-answer", try Self.write(offer, "offer"), try Self.write(answer, "answer")])
        #expect(result.status == 1)
        let rules = result.output.split(separator: "\n").map { $0.prefix { $0 != " " && $0 != ":" } }
        #expect(rules == [Substring(breakage.rule.rawValue)])
    }

    @Test func checkAnswerChecksICERestartAgainstTheCurrentDescriptions() throws {
        // Given a renegotiation whose offer restarts ICE, answered with the answerer's current credentials
        let current = try AnswerCheckerRenegotiationTests.current()
        let restart = try AnswerCheckerRenegotiationTests.with(current.offerer, ufrag: "oFfR", pwd: "offererRestartedPwd2345")
        let paths = (offer: try Self.write(restart, "offer"), answer: try Self.write(current.answerer, "answer"),
                     offererCurrent: try Self.write(current.offerer, "offerer"),
                     answererCurrent: try Self.write(current.answerer, "answerer"))

        // Then check-answer flags ice-restart on each section when given the current descriptions, and not without
        let renegotiation = try Self.run(["check-answer", paths.offer, paths.answer, "--offerer-current",
                                          paths.offererCurrent, "--answerer-current", paths.answererCurrent])
        #expect(renegotiation.status == 1)
        #expect(renegotiation.output.split(separator: "\n").map { $0.prefix { $0 != " " } } == ["ice-restart", "ice-restart", "ice-restart"])
        #expect(try Self.run(["check-answer", paths.offer, paths.answer]).status == 0)
        // And the two options go together
        #expect(try Self.run(["check-answer", paths.offer, paths.answer, "--offerer-current", paths.offererCurrent]).status != 0)
    }
}
