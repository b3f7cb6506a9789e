public import SDP

/// Builds a JSEP initial offer (RFC 8829 §5.2.1) from a ``MediaConfiguration``.
///
/// The offer bundles every section (`a=group:BUNDLE 0 1 …`, mids 0, 1, 2 in order), uses the trickle
/// dummy port 9 with `c=IN IP4 0.0.0.0`, repeats the transport attributes in every section as libwebrtc
/// does (docs/sdp-jsep.md#bundle), offers `setup:actpass`, `rtcp-mux` and `ice-options:trickle`.
public enum OfferBuilder {
    /// The offer.
    /// - Parameters:
    ///   - configuration: the media to offer: one section each for audio, video and the data channel, in that order.
    ///   - credentials: the ICE username fragment and password of every section.
    ///   - fingerprint: the DTLS certificate fingerprint of every section.
    ///   - sessionID: the `o=` session id (JSEP: random, below 2^63); pass one from an injected generator.
    ///   - sessionVersion: incremented for each new offer of the session.
    public static func offer(
        for configuration: MediaConfiguration, credentials: IceCredentials, fingerprint: Fingerprint,
        sessionID: UInt64, sessionVersion: UInt64 = 1
    ) -> SessionDescription {
        var sdp = SessionDescription(origin: Origin(sessionID: sessionID & (1 << 63 - 1), sessionVersion: sessionVersion))
        var sections = Self.sections(for: configuration)
        for index in sections.indices {
            sections[index].mid = String(index)
            addTransport(to: &sections[index], credentials: credentials, fingerprint: fingerprint, setup: .actpass)
        }
        if !sections.isEmpty { sdp.groups = [MediaGroup(semantics: "BUNDLE", mids: sections.indices.map(String.init))] }
        sdp.appendAttribute(SDPAttribute(name: "msid-semantic", value: " WMS"))
        sdp.media = sections
        return sdp
    }

    /// The new sections `configuration` asks for, in its order (audio, video, data channel), without mids or transport.
    static func sections(for configuration: MediaConfiguration) -> [MediaDescription] {
        [configuration.audio.map { rtpSection("audio", $0) }, configuration.video.map { rtpSection("video", $0) },
         configuration.dataChannel ? dataSection() : nil].compactMap { $0 }
    }

    /// A data-channel section (RFC 8841).
    static func dataSection() -> MediaDescription {
        var data = MediaDescription(kind: "application", port: 9, proto: "UDP/DTLS/SCTP", formats: ["webrtc-datachannel"])
        data.connection = Connection(address: "0.0.0.0")
        data.sctpPort = 5000
        data.maxMessageSize = 262_144
        return data
    }

    static func rtpSection(_ kind: String, _ section: MediaConfiguration.RTPSection) -> MediaDescription {
        var media = MediaDescription(kind: kind, port: 9, proto: "UDP/TLS/RTP/SAVPF", formats: [])
        media.connection = Connection(address: "0.0.0.0")
        if let kbps = section.bandwidthKbps { media.bandwidths = [Bandwidth(type: "AS", value: kbps)] }
        media.direction = section.direction
        media.rtcpMux = true
        for codec in section.codecs {
            let pt = codec.rtpMap.payloadType
            media.addCodec(codec.rtpMap, parameters: codec.parameters,
                           feedback: codec.feedback.map { RTCPFeedback(payloadType: pt, type: $0.type, parameter: $0.parameter) })
            if let rtx = codec.rtxPayloadType {
                media.addCodec(RTPMap(payloadType: rtx, encodingName: "rtx", clockRate: codec.rtpMap.clockRate), parameters: "apt=\(pt)")
            }
        }
        return media
    }

    /// ICE and DTLS attributes of one section (RFC 8839 §5.4, RFC 8122, RFC 4145).
    static func addTransport(to media: inout MediaDescription, credentials: IceCredentials, fingerprint: Fingerprint, setup: SetupRole) {
        media.iceUfrag = credentials.ufrag
        media.icePwd = credentials.pwd
        media.iceOptions = ["trickle"]
        media.fingerprints = [fingerprint]
        media.setup = setup
    }
}
