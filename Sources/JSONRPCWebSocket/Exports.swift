// The WebSocket adapter is the module a user of JSON-RPC over WebSocket imports: it brings the JSON-RPC core
// (values, codec, errors, client and server) and the transport's configuration types (TLS, event loops, upgrade
// requests and decisions) with it, so `import JSONRPCWebSocket` is all such a user needs.
@_exported public import JSONRPC
@_exported public import WebSocketTransport
