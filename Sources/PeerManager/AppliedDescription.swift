public import SDP

/// A description applied to a connection: its type and its parsed model (W3C `RTCSessionDescription`).
public struct AppliedDescription: Hashable, Sendable {
    /// offer, pranswer or answer.
    public var type: DescriptionType
    /// The parsed description; trickled candidates are added to it (docs/sdp-jsep.md#trickle, step 8).
    public var description: SessionDescription

    /// A description of `type`.
    public init(type: DescriptionType, description: SessionDescription) {
        self.type = type
        self.description = description
    }

    /// The SDP text, serialized from the model.
    public var sdp: String { description.serialized() }
}

/// The ICE agent role (RFC 8445 §6.1.1, docs/sdp-jsep.md#descriptions).
public enum IceRole: String, Hashable, Sendable, Codable {
    /// The agent that nominates pairs; the offerer, or the answerer facing an ICE-lite offerer.
    case controlling
    /// The other agent.
    case controlled
}
