import JSONRPC
import Logging
import SignalingSupport
import WebSocketTransport

extension TreeClient {
    /// Client settings (DESIGN §5 defaults), the same as ``RoomClient``'s.
    public struct Configuration: Sendable {
        /// Time allowed for the first attempt of a request; each retry doubles it. Default 5 s.
        public var requestTimeout: Duration
        /// Re-sends of the same request id after a timeout. Default 1 (our servers dedupe; use 0 against a stock
        /// Kurento Tree server, where a retried `addTreeSink` could add two sinks).
        public var retries: Int
        /// The WebSocket options: TLS trust (`webSocket.tls`), extra headers, handshake timeout and limits.
        public var webSocket: WebSocketClientConfiguration
        /// A bearer token, sent as `Authorization: Bearer <token>` on the upgrade request (DESIGN §6).
        public var authToken: String?
        /// Where the client logs. Default: discards everything.
        public var logger: Logger
        /// The clock behind the request timers.
        public var clock: any SignalingClock
        /// Per-subscriber buffer of ``TreeClient/events``. Default 1,024.
        public var eventBufferLimit: Int
        /// What happens on a drop: reconnect and resume the session (its trees and sinks stay while the server's
        /// reconnection window lasts). Default ``JSONRPC/JSONRPCClient/ReconnectPolicy/standard``; `.off` ends the
        /// client at the first drop.
        public var reconnect: JSONRPCClient.ReconnectPolicy
        /// The `ping` heartbeat. Default ``JSONRPC/JSONRPCClient/Heartbeat/standard`` (every 5 s).
        public var heartbeat: JSONRPCClient.Heartbeat

        /// Creates a configuration; every argument has the DESIGN §5 default.
        public init(
            requestTimeout: Duration = .seconds(5),
            retries: Int = 1,
            webSocket: WebSocketClientConfiguration = .init(),
            authToken: String? = nil,
            logger: Logger = .disabled(label: "KurentoSignaling.TreeClient"),
            clock: any SignalingClock = SystemClock(),
            eventBufferLimit: Int = 1024,
            reconnect: JSONRPCClient.ReconnectPolicy = .standard,
            heartbeat: JSONRPCClient.Heartbeat = .standard
        ) {
            self.requestTimeout = requestTimeout
            self.retries = retries
            self.webSocket = webSocket
            self.authToken = authToken
            self.logger = logger
            self.clock = clock
            self.eventBufferLimit = eventBufferLimit
            self.reconnect = reconnect
            self.heartbeat = heartbeat
        }

        var rpc: JSONRPCClient.Configuration {
            .init(requestTimeout: requestTimeout, retries: retries, reconnect: reconnect, heartbeat: heartbeat,
                  logger: logger, clock: clock)
        }

        /// The WebSocket options with the `Authorization` header added when there is a token.
        var webSocketWithAuthorization: WebSocketClientConfiguration { webSocket.authorized(by: authToken) }
    }
}
