public import JSONRPC

extension RoomClient {
    /// The JSON-RPC client under this room client, for extensions that share its session: shared objects
    /// (`SharedObjectClient(client: room.jsonRPCClient)`) whose `room:R/…` names need the session to have joined R.
    /// An extension claims its notifications' namespace
    /// (``/JSONRPC/JSONRPCClient/claimNotifications(inNamespace:by:_:)``) so that they never reach ``events``.
    public var jsonRPCClient: JSONRPCClient { rpc }
}
