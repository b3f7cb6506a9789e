public import JSONRPC
public import JSONRPCWebSocket
public import Logging
public import SignalingSupport

extension RoomClient {
    /// Client settings: those every signaling client shares (``common``, read and written as members of this
    /// configuration: `configuration.retries = 0`, `configuration.logger = logger`), and the room's own
    /// (``offerProvider``, ``failoverURLs``).
    @dynamicMemberLookup
    public struct Configuration: Sendable {
        /// The settings shared with `TreeClient`: request timeout and retries, WebSocket options and bearer token,
        /// logger, clock, ``/JSONRPCWebSocket/SignalingClientConfiguration/eventBufferLimit`` (the buffer of
        /// ``RoomClient/events`` and of the delegate), reconnect policy and heartbeat.
        public var common: SignalingClientConfiguration
        /// Makes the media recovery after a rejoin automatic: fresh offers for the publication and the
        /// subscriptions, and their answers applied. `nil` (the default): the client publishes
        /// ``RoomEvent/renegotiationNeeded(_:)`` instead.
        public var offerProvider: OfferProvider?
        /// More endpoints of the same rooms (the other nodes of a room-server cluster), tried in order after
        /// ``Room/url`` when it does not take a connection (``/JSONRPC/FailoverTransport``): a client whose node
        /// died reconnects to the next and rejoins there. Default: none.
        public var failoverURLs: [String]
        /// When a resumed session reads the room again instead of trusting the server to have replayed what it missed
        /// (docs/wire-protocol.md#stock-kurento). Default ``ResyncPolicy/whenServerDoesNotReplay``.
        public var resync: ResyncPolicy

        /// When a resumed session resynchronizes its room (leave, join again, report the differences as events).
        public enum ResyncPolicy: Sendable, Hashable {
            /// When the server's `connect` result does not list ``/JSONRPC/ServerCapabilities/replay`` (this
            /// package's servers list it; stock Kurento's do not).
            case whenServerDoesNotReplay
            /// After every resume.
            case always
            /// Never: trust the server.
            case never
        }

        /// Creates a configuration from the shared settings and the room's own.
        public init(_ common: SignalingClientConfiguration, offerProvider: OfferProvider? = nil,
                    failoverURLs: [String] = [], resync: ResyncPolicy = .whenServerDoesNotReplay) {
            self.common = common
            self.offerProvider = offerProvider
            self.failoverURLs = failoverURLs
            self.resync = resync
        }

        /// Settings safe against a stock Kurento Room server (docs/wire-protocol.md#stock-kurento): 15 s per
        /// request, no retries, nothing re-sent after a resume (``/JSONRPCWebSocket/SignalingClientConfiguration/stockKurento``),
        /// and a resync after every resume into a server that does not say it replays, which a stock one never says.
        public static var stockKurento: Configuration { Configuration(.stockKurento) }

        /// Creates a configuration; every argument has the default of the property it sets (see
        /// ``/JSONRPCWebSocket/SignalingClientConfiguration``).
        public init(
            requestTimeout: Duration = .seconds(5),
            retries: Int = 1,
            webSocket: WebSocketClientConfiguration = .init(),
            authToken: String? = nil,
            logger: Logger = .disabled(label: "KurentoSignaling.RoomClient"),
            clock: any SignalingClock = SystemClock(),
            eventBufferLimit: Int = 1024,
            reconnect: JSONRPCClient.ReconnectPolicy = .standard,
            heartbeat: JSONRPCClient.Heartbeat = .standard,
            offerProvider: OfferProvider? = nil,
            failoverURLs: [String] = []
        ) {
            self.init(
                SignalingClientConfiguration(
                    requestTimeout: requestTimeout, retries: retries, webSocket: webSocket, authToken: authToken,
                    logger: logger, clock: clock, eventBufferLimit: eventBufferLimit, reconnect: reconnect,
                    heartbeat: heartbeat),
                offerProvider: offerProvider, failoverURLs: failoverURLs)
        }

        /// A shared setting, read or written as a member of this configuration (`configuration.retries`).
        public subscript<Value>(dynamicMember keyPath: WritableKeyPath<SignalingClientConfiguration, Value>) -> Value {
            get { common[keyPath: keyPath] }
            set { common[keyPath: keyPath] = newValue }
        }

        /// What the shared settings derive (the JSON-RPC settings, the authorized WebSocket options).
        subscript<Value>(dynamicMember keyPath: KeyPath<SignalingClientConfiguration, Value>) -> Value {
            common[keyPath: keyPath]
        }
    }
}
