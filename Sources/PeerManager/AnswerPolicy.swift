public import SDP

/// What the answering (media-server) side supports and wants. By default the answerer is **ICE-lite**
/// (docs/sdp-jsep.md#transport-attributes): session-level `a=ice-lite`, host candidates only, inlined in the answer
/// together with `a=end-of-candidates`, so it never trickles. With ``trickle`` it is instead a full ICE agent that
/// trickles, as Kurento Media Server is: session-level `a=ice-options:trickle`, no candidates and no
/// `a=end-of-candidates` in the answer; its candidates are signaled separately.
public struct AnswerPolicy: Hashable, Sendable {
    /// Codecs the answerer can handle, matched by encoding name (case-insensitive), clock rate and, when
    /// both give one, channel count. RTX is accepted for every accepted codec it repairs.
    public var codecs: [RTPMap]
    /// Media kinds to reject with port 0 (for example `video` for an audio-only server).
    public var rejectedKinds: Set<String>
    /// The answerer's own direction per kind: what it is able to do; the answer intersects it with the
    /// offer (docs/sdp-jsep.md#answer-directions).
    public var directions: [String: MediaDirection]
    /// Header extensions the answerer understands; others offered are left out (RFC 8285 §5).
    public var headerExtensions: Set<String>
    /// The address and port the answer advertises (RFC 9143: shared by every bundled section).
    public var address: String
    /// The port of the answer's bundled sections.
    public var port: Int
    /// Host candidates inlined in the answer (ICE-lite).
    public var candidates: [CandidateAttribute]
    /// Whether data-channel sections are accepted.
    public var acceptsDataChannels: Bool
    /// Whether the answerer is a full ICE agent that trickles its candidates (`true`) or ICE-lite with
    /// ``candidates`` inlined (`false`, the default).
    public var trickle: Bool
    /// The DTLS role to answer an offer that has no `a=setup` with (docs/sdp-jsep.md#setup). RFC 4145 §4 says an
    /// absent attribute means `active`, so the default answers `passive` (the role opposite the offerer's). libwebrtc
    /// reads an absent attribute as `actpass` instead and answers `active`; set `.active` to match it.
    public var setupWhenOfferHasNone: SetupRole

    /// A policy; the defaults accept opus, PCMU, PCMA, VP8 and H264, sendrecv, and data channels, ICE-lite.
    public init(
        codecs: [RTPMap] = AnswerPolicy.defaultCodecs, rejectedKinds: Set<String> = [],
        directions: [String: MediaDirection] = [:], headerExtensions: Set<String> = AnswerPolicy.defaultHeaderExtensions,
        address: String = "0.0.0.0", port: Int = 9, candidates: [CandidateAttribute] = [], acceptsDataChannels: Bool = true,
        trickle: Bool = false, setupWhenOfferHasNone: SetupRole = .passive
    ) {
        self.codecs = codecs
        self.rejectedKinds = rejectedKinds
        self.directions = directions
        self.headerExtensions = headerExtensions
        self.address = address
        self.port = port
        self.candidates = candidates
        self.acceptsDataChannels = acceptsDataChannels
        self.trickle = trickle
        self.setupWhenOfferHasNone = setupWhenOfferHasNone
    }

    /// opus/48000/2, PCMU, PCMA, telephone-event, VP8, VP9, H264 (payload types are placeholders: the
    /// answer keeps the offerer's numbers).
    public static let defaultCodecs = [
        RTPMap(payloadType: 111, encodingName: "opus", clockRate: 48000, channels: 2),
        RTPMap(payloadType: 0, encodingName: "PCMU", clockRate: 8000),
        RTPMap(payloadType: 8, encodingName: "PCMA", clockRate: 8000),
        RTPMap(payloadType: 101, encodingName: "telephone-event", clockRate: 8000),
        RTPMap(payloadType: 96, encodingName: "VP8", clockRate: 90000),
        RTPMap(payloadType: 98, encodingName: "VP9", clockRate: 90000),
        RTPMap(payloadType: 102, encodingName: "H264", clockRate: 90000),
    ]

    /// Extensions a simple SFU understands.
    public static let defaultHeaderExtensions: Set<String> = [
        "urn:ietf:params:rtp-hdrext:sdes:mid", "urn:ietf:params:rtp-hdrext:ssrc-audio-level",
        "http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time",
        "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01",
        "urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id", "urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id",
    ]

    /// The static payload types of RFC 3551 that need no rtpmap.
    static let staticPayloadTypes: [Int: RTPMap] = [
        0: RTPMap(payloadType: 0, encodingName: "PCMU", clockRate: 8000),
        8: RTPMap(payloadType: 8, encodingName: "PCMA", clockRate: 8000),
        9: RTPMap(payloadType: 9, encodingName: "G722", clockRate: 8000),
    ]

    /// Whether an offered codec is supported.
    func supports(_ offered: RTPMap) -> Bool {
        codecs.contains { supported in
            supported.encodingName.lowercased() == offered.encodingName.lowercased()
                && supported.clockRate == offered.clockRate
                && (supported.channels == nil || offered.channels == nil || supported.channels == offered.channels)
        }
    }
}
