/// What a server says about itself in its `connect` result (docs/wire-protocol.md#server-description): the service
/// the path serves, its ``ServerCapabilities``, and the limits a client should respect. A stock Kurento server says
/// none of it: every member is then `nil` or empty.
public struct ServerDescription: Sendable, Hashable {
    /// The service the connected path serves (`"room"`, `"tree"`), when the server names it.
    public var service: String?
    /// What the server does beyond stock Kurento.
    public var capabilities: ServerCapabilities
    /// The advertised limits, as sent (`{"requestsPerSecond": 100, "maxMessageBytes": 1048576, …}`).
    public var limits: [String: JSONValue]

    /// The description in a `connect` result; empty for a result that says nothing.
    public init(connectResult result: JSONValue?) {
        service = result?["service"]?.stringValue
        capabilities = ServerCapabilities(advertisedIn: result)
        limits = result?["limits"]?.objectValue ?? [:]
    }

    /// Requests one session may send per second before the server refuses them (-32000 "rate limited").
    public var requestsPerSecond: Int? { limit("requestsPerSecond") }

    /// The largest message the server reads, in bytes; a bigger one closes the connection (1009).
    public var maxMessageBytes: Int? { limit("maxMessageBytes") }

    /// The advertised limit `name`, when it is a positive integer.
    public func limit(_ name: String) -> Int? {
        guard let value = limits[name]?.intValue, value > 0 else { return nil }
        return value
    }
}
