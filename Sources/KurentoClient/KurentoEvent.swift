/// An event a KMS object raises, delivered as an `onEvent` notification (docs/kurento.md#events) whose
/// `params.value = {data, object, type}`: ``eventType`` is the `type` one subscribes to, and the event decodes from
/// `data`, which also carries `source` (the raising object), `timestampMillis` and `tags`.
public protocol KurentoEvent: Decodable, Sendable {
    /// The event's name on the wire (`subscribe {type}`), e.g. `IceCandidateFound`.
    static var eventType: String { get }
}

/// `IceCandidateFound` (WebRtcEndpoint): a local candidate gathered after `gatherCandidates`.
public struct IceCandidateFound: KurentoEvent, Hashable {
    public static let eventType = "IceCandidateFound"
    /// The raising object's id.
    public var source: String
    /// The candidate.
    public var candidate: IceCandidate
}

/// `IceGatheringDone` (WebRtcEndpoint): every local candidate has been found. KMS may raise it before the last
/// `IceCandidateFound` arrives (Kurento/bugtracker#443), so do not treat it as a barrier.
public struct IceGatheringDone: KurentoEvent, Hashable {
    public static let eventType = "IceGatheringDone"
    /// The raising object's id.
    public var source: String
}

/// `MediaFlowInStateChanged` (MediaElement): media of one type started or stopped arriving at the element.
public struct MediaFlowInStateChanged: KurentoEvent, Hashable {
    public static let eventType = "MediaFlowInStateChanged"
    /// The raising object's id.
    public var source: String
    /// Whether media flows now.
    public var state: MediaFlowState
    /// The pad (media description), normally `default`.
    public var padName: String
    /// The media type.
    public var mediaType: MediaType
}

/// `MediaFlowOutStateChanged` (MediaElement): media of one type started or stopped leaving the element.
public struct MediaFlowOutStateChanged: KurentoEvent, Hashable {
    public static let eventType = "MediaFlowOutStateChanged"
    /// The raising object's id.
    public var source: String
    /// Whether media flows now.
    public var state: MediaFlowState
    /// The pad (media description), normally `default`.
    public var padName: String
    /// The media type.
    public var mediaType: MediaType
}

/// `MediaStateChanged` (BaseRtpEndpoint): the endpoint's media went up or down.
public struct MediaStateChanged: KurentoEvent, Hashable {
    public static let eventType = "MediaStateChanged"
    /// The raising object's id.
    public var source: String
    /// The state before.
    public var oldState: MediaConnectionState
    /// The state now.
    public var newState: MediaConnectionState
}

/// `ConnectionStateChanged` (BaseRtpEndpoint): the endpoint's connection went up or down.
public struct ConnectionStateChanged: KurentoEvent, Hashable {
    public static let eventType = "ConnectionStateChanged"
    /// The raising object's id.
    public var source: String
    /// The state before.
    public var oldState: MediaConnectionState
    /// The state now.
    public var newState: MediaConnectionState
}

/// `Error` (MediaObject): something failed inside KMS after the fact, for example a media element's GStreamer error
/// (Kurento/kurento `server/module-core/src/server/implementation/objects/MediaElementImpl.cpp`,
/// `processBusMessage`).
public struct ErrorEvent: KurentoEvent, Hashable {
    public static let eventType = "Error"
    /// The raising object's id.
    public var source: String
    /// What happened.
    public var description: String
    /// The error's code.
    public var errorCode: Int
    /// Its kind, e.g. `UNEXPECTED_ELEMENT_ERROR` or `STREAM_ERROR_FAILED`.
    public var type: String
}
