import Foundation
import PeerManager
import SDP
import Testing

/// aiortc (Python) as an independent witness (DESIGN §7): it makes an offer, our AnswerBuilder answers, and
/// aiortc's own setRemoteDescription must accept the answer. Skips without aiortc; fails under `CI=true`.
@Suite struct AiortcWitnessTests {
    static let script = SDPFiles.packageRoot.appendingPathComponent("Tests/PeerManagerTests/Witness/aiortc_offerer.py")

    static var aiortcAvailable: Bool {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import aiortc"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    static var shouldRun: Bool { aiortcAvailable || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Runs the witness: returns aiortc's offer and, after our answer, its verdict line.
    static func negotiate(kinds: [String], policy: AnswerPolicy) throws -> (offer: SessionDescription, verdict: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + kinds
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var buffer = Data()
        let marker = Data("END-OFFER\n".utf8)
        while buffer.range(of: marker) == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let offerText = String(decoding: buffer.prefix(upTo: try #require(buffer.range(of: marker)).lowerBound), as: UTF8.self)
        let offer = try SessionDescription(parsing: offerText)
        var generator = SeededGenerator(state: 21)
        let answer = AnswerBuilder.answer(
            to: offer, policy: policy, credentials: .random(using: &generator), fingerprint: .randomSHA256(using: &generator),
            sessionID: generator.next())
        input.fileHandleForWriting.write(Data(answer.serialized().utf8))
        try input.fileHandleForWriting.close()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let verdict = String(decoding: rest, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(AnswerChecker.violations(offer: offer, answer: answer) == [])
        return (offer, verdict)
    }

    @Test(.enabled(if: shouldRun, "python3 with aiortc not found; skipped"), .timeLimit(.minutes(1)))
    func aiortcAcceptsOurAnswerToItsAudioVideoDataOffer() throws {
        let host = try CandidateAttribute(parsing: "candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host")
        let result = try Self.negotiate(kinds: ["audio", "video", "data"], policy: AnswerPolicy(address: "127.0.0.1", port: 40000, candidates: [host]))
        #expect(result.offer.media.map(\.kind) == ["audio", "video", "application"])
        #expect(result.verdict == "accepted stable")
    }

    @Test(.enabled(if: shouldRun, "python3 with aiortc not found; skipped"), .timeLimit(.minutes(1)))
    func aiortcAcceptsOurAnswerRejectingVideo() throws {
        let result = try Self.negotiate(kinds: ["audio", "video"], policy: AnswerPolicy(rejectedKinds: ["video"]))
        #expect(result.verdict == "accepted stable")
    }
}
