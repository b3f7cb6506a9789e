import Foundation
import SDP
import TestSupport
import Testing

/// aiortc (Python) as an independent witness (docs/testing.md#witnesses): it offers, the double's WebRtcEndpoint
/// answers through `processOffer`, and aiortc's own setRemoteDescription must accept the answer. Skips without
/// aiortc; fails under `CI=true`.
@Suite struct ProcessOfferWitnessTests {
    /// The offerer script PeerManagerTests' witness uses.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PeerManagerTests/Witness/aiortc_offerer.py")

    static var shouldRun: Bool { Python.missing("aiortc") == nil || isCI }

    @Test(.enabled(if: shouldRun, "python3 with aiortc not found; skipped"), .timeLimit(.minutes(1)),
          arguments: [["audio", "video"], ["audio", "video", "data"]])
    func aiortcAcceptsTheAnswerOfProcessOffer(kinds: [String]) async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await client.create("MediaPipeline")
        let endpoint = try await client.create(
            "WebRtcEndpoint", ["mediaPipeline": pipeline, "useDataChannels": kinds.contains("data")])
        // The dialogue blocks its thread while aiortc starts and decides: tests that block take turns.
        let verdict = try await BlockingGate.withTurn {
            let witness = try PythonDialogue(script: Self.script.path, arguments: kinds)
            let offer = try #require(witness.read(until: "END-OFFER"))
            let answer = try #require(try await client.invoke(endpoint, "processOffer", ["offer": offer]) as? String)
            #expect(try SessionDescription(parsing: answer).media.count == kinds.count)
            return try witness.finish(with: answer)
        }
        #expect(verdict == "accepted stable")
    }
}
