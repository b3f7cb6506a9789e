public import JSONRPC

/// A Kurento Media Server object, addressed by its KMS id through the client that talks to its KMS. Any client of
/// that KMS can use any object by id, also one that another process created (docs/kurento.md#objects).
public protocol MediaObject: Sendable {
    /// The object's KMS id, e.g. `6ba9…_kurento.MediaPipeline` or `6ba9…_kurento.MediaPipeline/403d…_kurento.WebRtcEndpoint`.
    var id: String { get }
    /// The client of the object's KMS.
    var client: KurentoClient { get }
}

extension MediaObject {
    /// Invokes `operation` with `params` and returns its value (`null` for a void operation).
    @discardableResult
    public func invoke(_ operation: String, _ params: [String: JSONValue]? = nil, timeout: Duration? = nil)
        async throws(KurentoError) -> JSONValue
    {
        try await client.invoke(id, operation, params, timeout: timeout)
    }

    /// Releases the object (a pipeline with its elements); releasing one KMS no longer has is not an error.
    public func release(timeout: Duration? = nil) async throws(KurentoError) {
        try await client.release(id, timeout: timeout)
    }

    /// Subscribes `handler` to this object's events of type `Event`, until the subscription is cancelled or the
    /// object released.
    public func subscribe<Event: KurentoEvent>(_ type: Event.Type, _ handler: @escaping @Sendable (Event) -> Void)
        async throws(KurentoError) -> KurentoSubscription
    {
        try await client.subscribe(type, on: id, handler)
    }

    /// This object's events of type `Event`, subscribed on the wire before this returns.
    public func events<Event: KurentoEvent>(_ type: Event.Type) async throws(KurentoError) -> KurentoEventStream<Event> {
        try await client.events(type, of: id)
    }
}

/// A media element of a pipeline: it can be connected to other elements of the same pipeline.
public protocol MediaElement: MediaObject {}

extension MediaElement {
    /// The id of the pipeline the element belongs to (the part of its id before the `/`).
    public var pipelineId: String { String(id.prefix { $0 != "/" }) }

    /// Sends this element's media to `sink` (`connect`); without `mediaType`, audio, video and data. Elements of
    /// different pipelines cannot be connected (40004).
    public func connect(to sink: some MediaElement, mediaType: MediaType? = nil) async throws(KurentoError) {
        try await invoke("connect", Self.connectParams(sink, mediaType))
    }

    /// Stops sending this element's media to `sink` (`disconnect`).
    public func disconnect(from sink: some MediaElement, mediaType: MediaType? = nil) async throws(KurentoError) {
        try await invoke("disconnect", Self.connectParams(sink, mediaType))
    }

    /// `connect` as a call of ``KurentoClient/send(_:timeout:)``.
    public func connectCall(to sink: some MediaElement, mediaType: MediaType? = nil) -> KurentoCall {
        .invoke(self, "connect", Self.connectParams(sink, mediaType))
    }

    /// Whether media of `mediaType` arrives at the element (`isMediaFlowingIn`).
    public func isMediaFlowingIn(_ mediaType: MediaType) async throws(KurentoError) -> Bool {
        try await invoke("isMediaFlowingIn", ["mediaType": .string(mediaType.rawValue)]).boolValue ?? false
    }

    /// Whether media of `mediaType` leaves the element (`isMediaFlowingOut`).
    public func isMediaFlowingOut(_ mediaType: MediaType) async throws(KurentoError) -> Bool {
        try await invoke("isMediaFlowingOut", ["mediaType": .string(mediaType.rawValue)]).boolValue ?? false
    }

    static func connectParams(_ sink: some MediaElement, _ mediaType: MediaType?) -> [String: JSONValue] {
        var params: [String: JSONValue] = ["sink": .string(sink.id)]
        if let mediaType { params["mediaType"] = .string(mediaType.rawValue) }
        return params
    }
}
