import JSONRPCWebSocket

/// Builds WebSocket client options for the configuration tests.
enum WebSocketClientConfigurationProbe {
    /// Default options with one `Authorization` header already set.
    static func withAuthorizationHeader(_ value: String) -> WebSocketClientConfiguration {
        var options = WebSocketClientConfiguration()
        options.headers = [(name: "authorization", value: value)]
        return options
    }
}
