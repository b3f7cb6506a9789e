import SDP
import TestSupport
import Testing

/// aiortc (Python) as an independent witness (docs/testing.md#witnesses): it offers, the double's WebRtcEndpoint
/// answers through `processOffer`, and aiortc's own setRemoteDescription must accept the answer. Skips without
/// aiortc; fails under `CI=true`.
@Suite struct ProcessOfferWitnessTests {
    @Test(.enabled(if: AiortcWitness.shouldRun, "python3 with aiortc not found; skipped"), .timeLimit(.minutes(1)),
          arguments: [["audio", "video"], ["audio", "video", "data"]])
    func aiortcAcceptsTheAnswerOfProcessOffer(kinds: [String]) async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await client.create("MediaPipeline")
        let endpoint = try await client.create(
            "WebRtcEndpoint", ["mediaPipeline": pipeline, "useDataChannels": kinds.contains("data")])
        let verdict = try await AiortcWitness.verdict(offering: kinds) { offer in
            let answer = try #require(try await client.invoke(endpoint, "processOffer", ["offer": offer]) as? String)
            #expect(try SessionDescription(parsing: answer).media.count == kinds.count)
            return answer
        }
        #expect(verdict == "accepted stable")
    }
}
