/// A request: a call that expects a response with the same ``id``.
public struct RPCRequest: Sendable, Hashable {
    /// The id the response must carry.
    public var id: RequestID
    /// The method name.
    public var method: String
    /// The params, if any.
    public var rawParams: RPCParams?

    /// Creates a request.
    public init(id: RequestID, method: String, params: JSONValue? = nil) {
        self.init(id: id, method: method, rawParams: params.map(RPCParams.init))
    }
    init(id: RequestID, method: String, rawParams: RPCParams?) {
        self.id = id
        self.method = method
        self.rawParams = rawParams
    }

    /// The params as a JSON value.
    public var params: JSONValue? { rawParams?.value }

    /// The request as JSON text.
    public var jsonText: String { RPCMessage.request(self).jsonText }
}
