public import JSONRPCWebSocket

extension TreeClient {
    /// Client settings: the ones every signaling client shares, with the same defaults as `RoomClient`'s.
    /// A `TreeClient` session's trees and sinks stay while the server's reconnection window lasts, so the default
    /// ``/JSONRPCWebSocket/SignalingClientConfiguration/reconnect`` resumes them after a drop; use a `retries` of 0 against a
    /// stock Kurento Tree server, where a retried `addTreeSink` could add two sinks.
    public typealias Configuration = SignalingClientConfiguration
}
