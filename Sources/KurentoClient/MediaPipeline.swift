import JSONRPC

/// A media pipeline: the container of connected media elements (`MediaPipeline`). Releasing it releases every
/// element in it.
public struct MediaPipeline: MediaObject, Hashable {
    /// The KMS type name.
    public static let typeName = "MediaPipeline"

    public let id: String
    public let client: KurentoClient

    /// The pipeline with KMS id `id` on `client`'s KMS (one another process may have created).
    public init(id: String, client: KurentoClient) {
        self.id = id
        self.client = client
    }

    /// Creates a WebRTC endpoint in this pipeline. `recvonly` and `sendonly` restrict its directions;
    /// `useDataChannels` enables data channels.
    public func createWebRtcEndpoint(recvonly: Bool = false, sendonly: Bool = false, useDataChannels: Bool = false,
                                     timeout: Duration? = nil) async throws(KurentoError) -> WebRtcEndpoint {
        var params: [String: JSONValue] = ["mediaPipeline": .string(id)]
        if recvonly { params["recvonly"] = true }
        if sendonly { params["sendonly"] = true }
        if useDataChannels { params["useDataChannels"] = true }
        let endpoint = try await client.create(WebRtcEndpoint.typeName, constructorParams: params, timeout: timeout)
        return WebRtcEndpoint(id: endpoint, client: client)
    }

    /// Creates a pass-through element (it forwards what it receives) in this pipeline.
    public func createPassThrough(timeout: Duration? = nil) async throws(KurentoError) -> PassThrough {
        let element = try await client.create(PassThrough.typeName, constructorParams: ["mediaPipeline": .string(id)],
                                              timeout: timeout)
        return PassThrough(id: element, client: client)
    }

    /// The ids of the pipeline's elements (`getChildren`).
    public func children() async throws(KurentoError) -> [String] {
        try await invoke("getChildren").arrayValue?.compactMap(\.stringValue) ?? []
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.client === rhs.client }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A pass-through element (`PassThrough`): it forwards the media it receives to its sinks.
public struct PassThrough: MediaElement, Hashable {
    /// The KMS type name.
    public static let typeName = "PassThrough"

    public let id: String
    public let client: KurentoClient

    /// The element with KMS id `id` on `client`'s KMS.
    public init(id: String, client: KurentoClient) {
        self.id = id
        self.client = client
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.client === rhs.client }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension KurentoClient {
    /// Creates a media pipeline (`create MediaPipeline`).
    public func createMediaPipeline(timeout: Duration? = nil) async throws(KurentoError) -> MediaPipeline {
        MediaPipeline(id: try await create(MediaPipeline.typeName, timeout: timeout), client: self)
    }
}
