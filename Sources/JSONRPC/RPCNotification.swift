/// A notification: a call without id, which never gets a response.
public struct RPCNotification: Sendable, Hashable {
    /// The method name.
    public var method: String
    /// The params, if any.
    public var rawParams: RPCParams?

    /// Creates a notification.
    public init(method: String, params: JSONValue? = nil) {
        self.init(method: method, rawParams: params.map(RPCParams.init))
    }
    init(method: String, rawParams: RPCParams?) {
        self.method = method
        self.rawParams = rawParams
    }

    /// The params as a JSON value.
    public var params: JSONValue? { rawParams?.value }
}
