import JSONRPC
import SignalingSupport

/// The server side of a ``LocalMessageConnection`` pair, driven by the test line by line: it reads the client's
/// raw requests and sends raw text verbatim, so Kurento's quirks (`value` wrapping, `sessionId` everywhere, key
/// order) reach the client exactly as docs/wire-protocol.md#room shows them. It is also the client's
/// ``MessageTransport``: the first connect gets the client end; a second connect fails like a refused socket.
final class ScriptedRoomPeer: MessageTransport {
    /// A client request as received.
    struct Request: Sendable, CustomStringConvertible {
        let id: JSONValue
        let method: String
        let params: JSONValue?
        let message: JSONValue
        var description: String { message.jsonText }
    }

    struct ScriptError: Error, CustomStringConvertible {
        let description: String
    }

    private let clientEnd: LocalMessageConnection?
    let serverEnd: any MessageConnection
    private let handedOut = LockedValue(false)
    private let requestCount = LockedValue(0)
    /// Whether a `connect` without a `sessionId` is answered and skipped (see ``nextRequest()``); `false` plays a server
    /// that never answers it.
    let answersConnect: Bool

    /// How many requests the client has sent so far.
    var requestsReceived: Int { requestCount.withLock { $0 } }

    /// A peer on an in-memory pair, whose client end ``connect()`` hands out.
    init() {
        let (client, server) = LocalMessageConnection.pair()
        clientEnd = client
        serverEnd = server
        answersConnect = true
    }

    /// A peer on a connection a real server accepted (for tests of the `room-join` binary); it is no transport.
    init(accepted connection: any MessageConnection, answersConnect: Bool = true) {
        clientEnd = nil
        serverEnd = connection
        self.answersConnect = answersConnect
    }

    func connect() async throws -> any MessageConnection {
        let first = handedOut.withLock { taken in defer { taken = true }; return !taken }
        guard first, let clientEnd else {
            throw ConnectionEnd(code: 1006, reason: "scripted peer accepts one connection")
        }
        return clientEnd
    }

    /// The client's next message, which must be a request. A `connect` without a `sessionId` (a client asking the
    /// server to describe itself, docs/wire-protocol.md#server-description, or opening its session,
    /// docs/wire-protocol.md#delivery) is answered as a stock Kurento server answers it,
    /// `{"value": "OK", "sessionId": "s"}`, and skipped.
    func nextRequest() async throws -> Request {
        var message = try JSONValue(parsing: try await serverEnd.receive())
        while answersConnect, message["method"] == "connect", message["params"]?["sessionId"] == nil, let id = message["id"] {
            try await send(#"{"id":\#(id.jsonText),"result":{"value":"OK","sessionId":"s"},"jsonrpc":"2.0"}"#)
            message = try JSONValue(parsing: try await serverEnd.receive())
        }
        guard let method = message["method"]?.stringValue, let id = message["id"] else {
            throw ScriptError(description: "expected a request, got \(message.jsonText)")
        }
        requestCount.withLock { $0 += 1 }
        return Request(id: id, method: method, params: message["params"], message: message)
    }

    /// The client's next request, which must call `method`.
    func expectRequest(_ method: String) async throws -> Request {
        let request = try await nextRequest()
        guard request.method == method else {
            throw ScriptError(description: "expected \(method), got \(request)")
        }
        return request
    }

    /// Sends `text` verbatim.
    func send(_ text: String) async throws { try await serverEnd.send(text) }

    /// Answers `request` with `result` (given as raw JSON text), Kurento style: `{"id", "result", "jsonrpc"}`.
    func reply(to request: Request, result: String) async throws {
        try await send(#"{"id":\#(request.id.jsonText),"result":\#(result),"jsonrpc":"2.0"}"#)
    }

    /// Answers `request` with the error object `error` (raw JSON text).
    func reply(to request: Request, error: String) async throws {
        try await send(#"{"id":\#(request.id.jsonText),"error":\#(error),"jsonrpc":"2.0"}"#)
    }

    /// Sends the notification `method` with `params` (raw JSON text), in Kurento's key order.
    func notify(_ method: String, params: String) async throws {
        try await send(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#)
    }
}
