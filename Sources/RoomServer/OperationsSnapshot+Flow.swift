extension OperationsSnapshot {
    /// Whether media flows on one endpoint, per kind, as the media server last reported it (``MediaEvent/flow(_:_:)``;
    /// with ``KurentoMediaBackend``, KMS's `MediaFlowInStateChanged` for a published stream and
    /// `MediaFlowOutStateChanged` for a subscription): `true` flowing, `false` not flowing, `nil` unknown.
    ///
    /// Unknown means never reported: by a backend that reports no flow (``SimulatedMediaBackend``), for an endpoint
    /// whose media has not started yet (its ICE has not connected) or that does not carry that kind, and for a
    /// remote participant's stream. An endpoint with a media server (``Room/mediaServer``) whose kinds are all
    /// `false` or unknown is stuck: published or subscribed, but no media flows.
    public struct Flow: Codable, Sendable, Hashable {
        /// Whether audio flows.
        public var audio: Bool?
        /// Whether video flows.
        public var video: Bool?

        /// Creates a flow entry; unknown by default.
        public init(audio: Bool? = nil, video: Bool? = nil) {
            self.audio = audio
            self.video = video
        }

        /// Encodes both members, unknown ones as `null`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(audio, forKey: .audio)
            try container.encode(video, forKey: .video)
        }
    }
}

extension OperationsSnapshot.Flow {
    /// The entry for what a backend reported on one endpoint in one direction, by kind (`audio`, `video`; others are
    /// left out).
    init(_ kinds: [String: Bool]?) {
        self.init(audio: kinds?["audio"], video: kinds?["video"])
    }
}
