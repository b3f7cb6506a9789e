import PeerManager
import SDP
import Testing

@Suite struct OfferBuilderTests {
    static func build(_ configuration: MediaConfiguration, seed: UInt64 = 7) -> SessionDescription {
        var generator = SeededGenerator(state: seed)
        return OfferBuilder.offer(
            for: configuration, credentials: .random(using: &generator), fingerprint: .randomSHA256(using: &generator),
            sessionID: generator.next())
    }

    static let full: MediaConfiguration = {
        var configuration = MediaConfiguration.audioVideo()
        configuration.video?.bandwidthKbps = 1500
        configuration.dataChannel = true
        return configuration
    }()

    @Test func offerParsesStrictlyAndRoundTrips() throws {
        let offer = Self.build(Self.full)
        let text = offer.serialized()
        let parsed = try SessionDescription(parsing: text)
        #expect(parsed == offer)
        #expect(text.hasSuffix("\r\n"))
    }

    @Test func sectionsAreBundledWithMidsInOrder() {
        let offer = Self.build(Self.full)
        #expect(offer.media.map(\.kind) == ["audio", "video", "application"])
        #expect(offer.media.map(\.mid) == ["0", "1", "2"])
        #expect(offer.bundleGroups == [MediaGroup(semantics: "BUNDLE", mids: ["0", "1", "2"])])
        #expect(offer.origin.map { $0.sessionID < 1 << 63 } == true)
    }

    @Test func transportParametersAreLegalAndIdenticalInEverySection() throws {
        let offer = Self.build(Self.full)
        for section in offer.media {
            let credentials = IceCredentials(ufrag: try #require(section.iceUfrag), pwd: try #require(section.icePwd))
            #expect(credentials.isValid)
            #expect(section.setup == .actpass)
            #expect(section.iceOptions == ["trickle"])
            let fingerprint = try #require(section.fingerprints.first)
            #expect(fingerprint.hashFunction == "sha-256")
            #expect(fingerprint.value.split(separator: ":").count == 32)
            #expect(fingerprint.value.split(separator: ":").allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) })
        }
        #expect(Set(offer.media.map(\.iceUfrag)).count == 1)
    }

    @Test func rtpSectionsCarryCodecsRtcpMuxAndBandwidth() {
        let offer = Self.build(Self.full)
        let audio = offer.media[0], video = offer.media[1]
        #expect(audio.rtpMap(for: 111) == RTPMap(payloadType: 111, encodingName: "opus", clockRate: 48000, channels: 2))
        #expect(video.payloadTypes == [96, 97, 102, 103])
        #expect(video.retransmissionPayloadTypes(for: 96) == [97])
        #expect(video.formatParameters(for: 102)?.value(for: "packetization-mode") == "1")
        #expect(video.rtcpFeedback(for: 96).map(\.type).contains("nack"))
        #expect(audio.rtcpMux && video.rtcpMux)
        #expect(video.bandwidths == [Bandwidth(type: "AS", value: 1500)])
        #expect(audio.direction == .sendrecv)
    }

    @Test func dataSectionUsesSCTPOverDTLS() {
        let data = Self.build(Self.full).media[2]
        #expect(data.proto == "UDP/DTLS/SCTP" && data.formats == ["webrtc-datachannel"])
        #expect(data.sctpPort == 5000)
    }

    @Test func directionsAreOfferedAsConfigured() {
        let offer = Self.build(.audioVideo(direction: .sendonly))
        #expect(offer.media.map(\.direction) == [.sendonly, .sendonly])
    }

    @Test func sameSeedSameOfferDifferentSeedDifferentCredentials() {
        #expect(Self.build(Self.full, seed: 1) == Self.build(Self.full, seed: 1))
        #expect(Self.build(Self.full, seed: 1).media[0].iceUfrag != Self.build(Self.full, seed: 2).media[0].iceUfrag)
    }

    @Test func builtOfferDrivesAConnectionToHaveLocalOffer() throws {
        var pc = PeerConnection()
        _ = try pc.createOffer(Self.build(Self.full))
        #expect(try pc.setLocalDescription(.offer) == [.signalingStateChanged(.haveLocalOffer)])
    }
}
