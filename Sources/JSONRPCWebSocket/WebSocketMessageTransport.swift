public import WebSocketTransport
public import JSONRPC
package import Logging

/// A ``/JSONRPC/MessageTransport`` that dials one `ws://` or `wss://` URL; each ``connect()`` opens a new WebSocket.
public struct WebSocketMessageTransport: MessageTransport {
    /// The endpoint, e.g. `ws://127.0.0.1:8888/kurento`.
    public var url: String
    /// TLS trust, headers, subprotocol, timeouts and limits of each connection.
    public var configuration: WebSocketClientConfiguration
    /// The event loop the connections run on.
    public var loop: WebSocketEventLoop

    /// Creates a transport to `url`.
    public init(url: String, configuration: WebSocketClientConfiguration = .init(), loop: WebSocketEventLoop = .shared) {
        self.url = url
        self.configuration = configuration
        self.loop = loop
    }

    /// Opens a WebSocket connection.
    /// - Throws: the ``/WebSocketTransport/TransportError`` of a failed connect (bad URL, refused, TLS, timeout);
    ///   for an upgrade refused with HTTP 401 or 403, the ``/JSONRPC/ConnectionEnd`` of the same refusal after the handshake
    ///   (4401, 4403: ``/JSONRPC/ConnectionEnd/isAuthorizationRefusal``), so that a client treats both alike.
    public func connect() async throws -> any MessageConnection {
        do {
            return WebSocketMessageConnection(try await WebSocketConnection.connect(to: url, configuration: configuration, loop: loop))
        } catch TransportError.upgradeRefused(let status, _) where status == 401 || status == 403 {
            throw ConnectionEnd(code: UpgradeDecision.closeCode(forStatus: status),
                                reason: "the server refused the upgrade with HTTP \(status)")
        }
    }
}

extension JSONRPCClient {
    /// Creates a client for the JSON-RPC endpoint at `url` (`ws://` or `wss://`), over ``WebSocketMessageTransport``.
    /// With `authToken`, every handshake (and redial) carries `Authorization: Bearer <authToken>`, as `RoomClient`'s
    /// does; a server that refuses it fails the call with ``/JSONRPC/RPCError/unauthorized(_:)`` or ``/JSONRPC/RPCError/forbidden(_:)``.
    ///
    /// ```swift
    /// let client = JSONRPCClient(url: "ws://127.0.0.1:8888/kurento")
    /// let result = try await client.call("ping", params: ["interval": 240000])
    /// ```
    public convenience init(url: String, configuration: Configuration = .init(),
                            webSocket: WebSocketClientConfiguration = .init(), authToken: String? = nil) {
        WebSocketMessageTransport.noteScheme(of: url, to: configuration.logger)
        self.init(transport: WebSocketMessageTransport(url: url, configuration: webSocket.authorized(by: authToken)),
                  configuration: configuration)
    }
}

extension WebSocketMessageTransport {
    /// Logs, at notice level, that an `http://` or `https://` URL (as the Kurento iOS toolbox documents room URLs) is
    /// dialled as `ws://` or `wss://` (docs/wire-protocol.md#stock-kurento).
    package static func noteScheme(of url: String, to logger: Logger) {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return }
        logger.notice("an http(s) URL is dialled as a WebSocket URL", metadata: [
            "url": "\(lower.hasPrefix("https") ? "wss" : "ws")\(url.drop { $0 != ":" })",
        ])
    }
}
