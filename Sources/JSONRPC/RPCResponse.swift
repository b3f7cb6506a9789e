/// A response: the result or the error of the request with the same ``id``.
public struct RPCResponse: Sendable, Hashable {
    /// The id of the request answered (`null` when it could not be read).
    public var id: RequestID
    /// The result, or the error object.
    public var outcome: Result<JSONValue, RPCErrorObject>

    /// Creates a response.
    public init(id: RequestID, outcome: Result<JSONValue, RPCErrorObject>) {
        self.id = id
        self.outcome = outcome
    }

    /// A success response.
    public static func result(_ value: JSONValue, id: RequestID) -> RPCResponse { .init(id: id, outcome: .success(value)) }
    /// An error response.
    public static func error(_ error: RPCErrorObject, id: RequestID) -> RPCResponse { .init(id: id, outcome: .failure(error)) }

    /// The response as JSON text.
    public var jsonText: String { RPCMessage.response(self).jsonText }
}
