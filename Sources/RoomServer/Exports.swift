// What an embedder of RoomServer writes against comes with it: the JSON-RPC core (JSONValue, RPCErrorObject,
// ServerSession for custom handlers) and the WebSocket adapter's types (UpgradeRequest and UpgradeDecision for
// `upgradeFilter`, WebSocketServerConfiguration and TLS for listening), so `import RoomServer` is enough.
@_exported public import JSONRPCWebSocket
