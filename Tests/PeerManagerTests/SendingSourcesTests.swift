import SignalingSupport
import PeerManager
import SDP
import TestSupport
import Testing

/// Sending sections carry `a=msid` and `a=ssrc … cname` (with the RTX `ssrc-group:FID`), stable across
/// renegotiations (RFC 8830, RFC 5576, JSEP §5.2.1/§5.3.1; docs/sdp-jsep.md#sending-sections).
@Suite struct SendingSourcesTests {
    /// Chrome's offer made into a subscriber's: every RTP section recvonly, its own sources removed.
    static func subscriberOffer() throws -> String {
        var offer = try SDPFiles.fixture("chrome-offer.sdp")
        for index in offer.media.indices where offer.media[index].proto.contains("RTP") {
            offer.media[index].direction = .recvonly
            offer.media[index].msids = []
            offer.media[index].ssrcAttributes = []
            offer.media[index].ssrcGroups = []
        }
        return offer.serialized()
    }

    /// The msid, SSRC and SSRC-group lines of each section, in order.
    static func sources(_ description: SessionDescription) -> [[String]] {
        description.media.map { section in
            section.msids.map { "msid:" + $0.attributeValue } + section.ssrcGroups.map { "group:" + $0.attributeValue }
                + section.ssrcAttributes.map { "ssrc:" + $0.attributeValue }
        }
    }

    @Test func aSubscribersRecvonlyOfferIsAnsweredWithOneStreamAndTheSourcesOfEachTrack() async throws {
        let server = PeerManager(generator: SeededRandomNumberGenerator(seed: 41))
        let answer = try SessionDescription(parsing: try await server.processOffer(try Self.subscriberOffer(), for: "sub"))
        let sources = try #require(await server.session(of: "sub")?.sources)

        let audio = answer.media[0], video = answer.media[1]
        #expect([audio.direction, video.direction] == [.sendonly, .sendonly])
        // One stream for both tracks, a track of its own each
        #expect(audio.msids.map(\.streamID) == [sources.streamID])
        #expect(video.msids.map(\.streamID) == [sources.streamID])
        #expect(audio.msids.first?.trackID != video.msids.first?.trackID)
        // Audio: one SSRC with the cname; video (Chrome offers RTX): primary and RTX, grouped FID
        #expect(audio.ssrcs.count == 1 && audio.ssrcGroups.isEmpty)
        #expect(video.ssrcs.count == 2)
        #expect(video.ssrcGroups == [SSRCGroup(semantics: "FID", ssrcs: video.ssrcs)])
        for section in [audio, video] {
            #expect(section.ssrcAttributes.filter { $0.name == "cname" }.map(\.value) == section.ssrcs.map { _ in sources.cname })
        }
        // And nothing on the data channel
        #expect(answer.media.filter { !$0.proto.contains("RTP") }.allSatisfy { $0.msids.isEmpty && $0.ssrcs.isEmpty })
        // And every SSRC of the connection differs
        let all = answer.media.flatMap(\.ssrcs)
        #expect(Set(all).count == all.count)
    }

    @Test func sourcesStayTheSameAcrossRenegotiationsAndAnICERestart() async throws {
        let browser = try Self.subscriberOffer()
        let server = PeerManager(generator: SeededRandomNumberGenerator(seed: 42))
        let first = try SessionDescription(parsing: try await server.processOffer(browser, for: "sub"))

        // When the browser offers again with new credentials (an ICE restart)
        var restarted = try SessionDescription(parsing: browser)
        restarted.iceUfrag = nil
        for index in restarted.media.indices {
            restarted.media[index].iceUfrag = "rStr"
            restarted.media[index].icePwd = "restartedPasswordOf24ch"
        }
        restarted.origin?.sessionVersion += 1
        let second = try SessionDescription(parsing: try await server.processOffer(restarted.serialized(), for: "sub"))

        // Then the server's sources are the very same lines
        #expect(Self.sources(second) == Self.sources(first))
        #expect(!Self.sources(first)[0].isEmpty)
    }

    @Test func onlySectionsThatSendCarrySources() async throws {
        let manager = PeerManager(generator: SeededRandomNumberGenerator(seed: 43))
        let receiving = try SessionDescription(parsing: try await manager.generateOffer(
            for: "r", media: .audioVideo(direction: .recvonly)))
        #expect(Self.sources(receiving) == [[], []])

        let sending = try SessionDescription(parsing: try await manager.generateOffer(
            for: "s", media: .audioVideo(direction: .sendonly)))
        #expect(sending.media.map { $0.msids.count } == [1, 1])
        // VP8 and H264 each offer RTX: the section's one track gets one RTX SSRC
        #expect(sending.media[1].ssrcGroups.map(\.semantics) == ["FID"])
    }

    @Test func aPreviousDescriptionsSourcesAreReadBack() async throws {
        let manager = PeerManager(generator: SeededRandomNumberGenerator(seed: 44))
        let offer = try SessionDescription(parsing: try await manager.generateOffer(for: "s", media: .audioVideo()))
        let sources = try #require(await manager.session(of: "s")?.sources)

        #expect(SendingSources(announcedIn: offer) == sources)
        #expect(SendingSources(announcedIn: try SessionDescription(parsing: try Self.subscriberOffer())) == nil)
    }
}
