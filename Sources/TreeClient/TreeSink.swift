/// A sink added with ``TreeClient/addSink(sdpOffer:tree:)`` (the NBMTreeEndpoint counterpart).
public struct TreeSink: Sendable, Hashable, Identifiable {
    /// The sink's id, for ``TreeClient/removeSink(_:tree:)`` and ``TreeClient/sendICECandidate(_:for:tree:)``.
    public var id: String
    /// The server's SDP answer to the sink's offer.
    public var sdpAnswer: String

    /// Creates a sink.
    public init(id: String, sdpAnswer: String) {
        self.id = id
        self.sdpAnswer = sdpAnswer
    }
}
