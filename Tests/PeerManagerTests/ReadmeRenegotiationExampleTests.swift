import PeerManager
import SDP
import Testing

/// The renegotiation example of docs/examples.md (once the README's), run as written, then checked.
@Suite struct ReadmeRenegotiationExampleTests {
    @Test func theReadmeRenegotiationRuns() async throws {
        let publisher = PeerManager(), server = PeerManager()
        let offer = try await publisher.generateOffer(for: "cam", media: .audioVideo(direction: .sendrecv))
        try await publisher.processAnswer(try await server.processOffer(offer, for: "cam"), for: "cam")

        try await publisher.setDirection(.inactive, forMid: "1", of: "cam")   // video off, same m-lines
        try await publisher.restartIce(for: "cam")                              // and new ICE credentials
        let again = try await publisher.renegotiate("cam")
        try await publisher.processAnswer(try await server.processOffer(again, for: "cam"), for: "cam")

        let first = try SessionDescription(parsing: offer), second = try SessionDescription(parsing: again)
        #expect(second.media.map(\.mid) == first.media.map(\.mid))
        #expect(second.media.map(\.direction) == [.sendrecv, .inactive])
        #expect(second.effectiveIceUfrag(ofMediaAt: 0) != first.effectiveIceUfrag(ofMediaAt: 0))
        let answer = try #require(await server.connection("cam")?.currentLocalDescription?.description)
        #expect(answer.effectiveDirection(ofMediaAt: 1) == .inactive)
        #expect(await publisher.connection("cam")?.signalingState == .stable)
    }
}
