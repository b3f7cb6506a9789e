public import JSONRPC
public import JSONRPCWebSocket
import Logging
import RoomProtocol
import SDP
import SignalingSupport

/// The Kurento Tree client: the NBMTreeClient counterpart (docs/wire-protocol.md#tree), over a
/// ``/JSONRPC/JSONRPCClient``. A tree broadcasts one source to many sinks; the server is usually a `RoomServer` on
/// `/tree`.
///
/// ```swift
/// let client = TreeClient(url: "ws://127.0.0.1:8443/tree")
/// let tree = try await client.createTree()                        // the server's id
/// let answer = try await client.setSource(sdpOffer: offer, tree: tree)
/// let sink = try await viewer.addSink(sdpOffer: viewerOffer, tree: tree)   // sink.id, sink.sdpAnswer
/// for try await event in client.events { print(event) }           // iceCandidate: source or sink
/// ```
///
/// - Calls throw ``/RoomProtocol/TreeError`` when the server answers with a Tree code (2: unknown tree or sink,
///   duplicate id, no source…), and ``/JSONRPC/RPCError`` otherwise (-32601, -32602, timeout, connection closed).
/// - ``events`` is multicast: each access is a new subscriber with a bounded buffer, in wire order. Server
///   candidates say whether they are for the source or for which sink.
/// - The NBMTreeClient bugs are not copied: ``createTree(id:)`` returns the server-generated id, ``setSource(sdpOffer:tree:)``
///   reports errors (its completion face runs exactly once), ``removeSink(_:tree:)`` uses the sink's id, and source
///   candidates (no `sinkId`) are ordinary events.
/// - The delegate (``delegate``) and completion-closure faces are thin adapters over the async API; they are
///   called on no particular thread.
public final class TreeClient: Sendable {
    /// The Tree endpoint's URL (informative when the client was made with a transport).
    public let url: String
    /// The settings this client was made with.
    public let configuration: Configuration
    let rpc: JSONRPCClient
    let eventHub: Broadcast<TreeEvent>
    let delegateFeeder = DelegateFeeder<any TreeClientDelegate>()
    var logger: Logger { configuration.logger }

    /// Creates a client for the Tree endpoint at `url` (`ws://…/tree` or `wss://…/tree`), with TLS, headers and
    /// the bearer token from `configuration`. Nothing is sent until ``connect()`` or the first call.
    public convenience init(url: String, configuration: Configuration = .init()) {
        WebSocketMessageTransport.noteScheme(of: url, to: configuration.logger)
        self.init(url: url, transport: WebSocketMessageTransport(url: url, configuration: configuration.webSocketWithAuthorization),
                  configuration: configuration)
    }

    /// Creates a client that opens its connections through `transport` (`url` is then only informative).
    public init(url: String, transport: any MessageTransport, configuration: Configuration = .init()) {
        self.url = url
        self.configuration = configuration
        rpc = JSONRPCClient(transport: transport, configuration: configuration.rpc)
        eventHub = Broadcast(bufferLimit: configuration.eventBufferLimit)
        rpc.observeNotifications { [weak self] notification in self?.apply(notification) }
        rpc.observeConnectionStates { [weak self] state in self?.eventHub.publish(.connectionStateChanged(state)) }
    }

    deinit {
        eventHub.finish()
        delegateFeeder.stop()
    }

    /// A new subscriber to the client's events, in wire order, from this moment on: it gets every event, or, when
    /// it falls more than ``/JSONRPCWebSocket/SignalingClientConfiguration/eventBufferLimit`` behind, the ones it buffered
    /// and then ``/JSONRPC/BroadcastOverflow``, once, ending it.
    public var events: Broadcast<TreeEvent>.Subscription { eventHub.subscribe() }

    /// The connection's current state.
    public var connectionState: ConnectionState { rpc.connectionState }

    /// The `sessionId` the server last reported (docs/wire-protocol.md#kurento-conventions), if any. A bearer
    /// credential: do not log it.
    public var sessionId: String? { rpc.sessionId }

    /// The JSON-RPC client under this tree client (e.g. to end its session with `closeSession`).
    public var jsonRPCClient: JSONRPCClient { rpc }

    /// Publishes the event of one notification (in the receive loop, so events keep wire order).
    private func apply(_ notification: RPCNotification) {
        guard let method = TreeNotificationMethod(rawValue: notification.method) else {
            logger.debug("notification outside the Tree protocol", metadata: ["method": "\(notification.method)"])
            eventHub.publish(.customNotification(method: notification.method, params: notification.params))
            return
        }
        do {
            switch try TreeNotification(method: method, params: notification.params) {
            case .iceCandidate(let message):
                let candidate = IceCandidate(candidate: message.candidate, sdpMid: message.sdpMid,
                                             sdpMLineIndex: message.sdpMLineIndex)
                eventHub.publish(.iceCandidate(candidate, tree: message.treeId, endpoint: message.endpoint))
            case .mediaError(let message):
                eventHub.publish(.mediaError(message.error, tree: message.treeId, endpoint: message.endpoint))
            }
        } catch {
            logger.warning("malformed notification: \(error)")
            eventHub.publish(.invalidNotification(error))
        }
    }
}
