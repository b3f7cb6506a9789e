import JSONRPC

extension RoomServer {
    /// The services a `RoomServer` serves, as its `connect` results name them (`"service"`).
    enum Service: String {
        case room, tree
    }

    /// What a path of `service` says about itself in its `connect` results (docs/wire-protocol.md#server-description):
    /// the service, and the limits a well-behaved client paces and sizes its requests by.
    static func advertised(_ service: Service, _ configuration: Configuration) -> [String: JSONValue] {
        var limits: [String: JSONValue] = ["maxMessageBytes": .int(configuration.maxMessageSize)]
        if let rate = configuration.limits.maxRequestsPerSecond { limits["requestsPerSecond"] = .int(rate) }
        if service == .room { limits["maxChatMessageBytes"] = .int(configuration.limits.maxChatMessageBytes) }
        return ["service": .string(service.rawValue), "limits": .object(limits)]
    }
}
