/// A kind of media, as KMS names it (`MediaType` in Kurento/kurento `server/module-core/src/server/interface/core.kmd.json`).
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    /// `AUDIO`.
    case audio = "AUDIO"
    /// `VIDEO`.
    case video = "VIDEO"
    /// `DATA`.
    case data = "DATA"
}

/// Whether media flows through an element's pad (`MediaFlowState`, core.kmd.json).
public enum MediaFlowState: String, Sendable, Hashable, Codable {
    /// `FLOWING`.
    case flowing = "FLOWING"
    /// `NOT_FLOWING`.
    case notFlowing = "NOT_FLOWING"
}

/// Whether an endpoint's media or its connection is up: KMS's `MediaState` and `ConnectionState` enums, which share
/// these two values (core.kmd.json).
public enum MediaConnectionState: String, Sendable, Hashable, Codable {
    /// `CONNECTED`.
    case connected = "CONNECTED"
    /// `DISCONNECTED`.
    case disconnected = "DISCONNECTED"
}
