public import SDP

/// What an offer asks for: which sections, their directions, codecs and bandwidth.
public struct MediaConfiguration: Hashable, Sendable {
    /// One RTP codec with its fmtp and feedback; an optional RTX payload type (RFC 4588).
    public struct Codec: Hashable, Sendable {
        /// The rtpmap.
        public var rtpMap: RTPMap
        /// fmtp parameters.
        public var parameters: String?
        /// rtcp-fb lines for this payload type (their payloadType is overwritten).
        public var feedback: [RTCPFeedback]
        /// The payload type of its RTX stream, if any.
        public var rtxPayloadType: Int?

        /// A codec description.
        public init(rtpMap: RTPMap, parameters: String? = nil, feedback: [RTCPFeedback] = [], rtxPayloadType: Int? = nil) {
            self.rtpMap = rtpMap
            self.parameters = parameters
            self.feedback = feedback
            self.rtxPayloadType = rtxPayloadType
        }

        static let videoFeedback = [("goog-remb", nil), ("transport-cc", nil), ("ccm", "fir"), ("nack", nil), ("nack", "pli")]
            .map { RTCPFeedback(payloadType: nil, type: $0.0, parameter: $0.1) }

        /// opus/48000/2 with in-band FEC.
        public static let opus = Codec(
            rtpMap: RTPMap(payloadType: 111, encodingName: "opus", clockRate: 48000, channels: 2),
            parameters: "minptime=10;useinbandfec=1", feedback: [RTCPFeedback(payloadType: nil, type: "transport-cc")])
        /// VP8 with RTX.
        public static let vp8 = Codec(
            rtpMap: RTPMap(payloadType: 96, encodingName: "VP8", clockRate: 90000), feedback: videoFeedback, rtxPayloadType: 97)
        /// H.264 constrained baseline 3.1, packetization mode 1, with RTX.
        public static let h264 = Codec(
            rtpMap: RTPMap(payloadType: 102, encodingName: "H264", clockRate: 90000),
            parameters: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
            feedback: videoFeedback, rtxPayloadType: 103)
    }

    /// One RTP section to offer.
    public struct RTPSection: Hashable, Sendable {
        /// The direction to offer.
        public var direction: MediaDirection
        /// Codecs in preference order.
        public var codecs: [Codec]
        /// `b=AS` in kbit/s, if any.
        public var bandwidthKbps: UInt64?

        /// A section description.
        public init(direction: MediaDirection, codecs: [Codec], bandwidthKbps: UInt64? = nil) {
            self.direction = direction
            self.codecs = codecs
            self.bandwidthKbps = bandwidthKbps
        }
    }

    /// The audio section, if any (offered first).
    public var audio: RTPSection?
    /// The video section, if any.
    public var video: RTPSection?
    /// Whether to offer a data channel section (last).
    public var dataChannel: Bool

    /// A configuration.
    public init(audio: RTPSection? = nil, video: RTPSection? = nil, dataChannel: Bool = false) {
        self.audio = audio
        self.video = video
        self.dataChannel = dataChannel
    }

    /// Audio (opus) and video (VP8, H264), both with `direction`.
    public static func audioVideo(direction: MediaDirection = .sendrecv) -> MediaConfiguration {
        MediaConfiguration(
            audio: RTPSection(direction: direction, codecs: [.opus]), video: RTPSection(direction: direction, codecs: [.vp8, .h264]))
    }
}
