import CLibWebSockets
import SignalingSupport

/// One plain HTTP transaction on a server socket, from `LWS_CALLBACK_HTTP` to `lws_http_transaction_completed`.
/// Service thread only (docs/libwebsockets.md#plain-http).
final class HTTPExchange {
    enum Phase {
        /// The request's body is arriving (`LWS_CALLBACK_HTTP_BODY`) within the server's handshake timeout; the
        /// handler starts at `LWS_CALLBACK_HTTP_BODY_COMPLETION`.
        case receiving
        /// The handler's task is running; the deadline timer (`lws_set_timer_usecs`) is armed.
        case handling
        /// The response is going out in `LWS_CALLBACK_HTTP_WRITEABLE`.
        case writing
    }

    /// Which request of the socket this is: a handler's response is taken only while it still matches.
    let sequence: Int
    let isHead: Bool
    /// When the current phase must be over: the body's arrival, then the handler's answer.
    var deadline: ContinuousClock.Instant
    var phase = Phase.handling
    /// While ``Phase/receiving``: the request, its body's length and the bytes of it that arrived so far.
    var request: HTTPRequest?
    var expectedBody = 0
    var received: [UInt8] = []
    /// The handler's task, cancelled when the request is answered without it (deadline, peer gone).
    var task: Task<Void, Never>?
    /// `CLWS_PRE` bytes, then the status line and the headers.
    var head: [UInt8] = []
    var headWritten = false
    /// `CLWS_PRE` bytes, then the body; only the headroom for `HEAD`, 204 and 304. The bytes already written
    /// before a chunk serve as that chunk's headroom.
    var body: [UInt8] = []
    var bodyOffset = 0

    init(sequence: Int, isHead: Bool, deadline: ContinuousClock.Instant) {
        self.sequence = sequence
        self.isHead = isHead
        self.deadline = deadline
    }
}

/// Plain HTTP on a WebSocket server's port: requests go to ``WebSocketServerConfiguration/httpHandler`` off the
/// service thread, responses come back through the mailbox and are written in WRITEABLE-sized chunks
/// (docs/libwebsockets.md#plain-http).
extension ConnectionCore {
    /// Body bytes handed to lws per write; the loop stops earlier when `lws_send_pipe_choked` says the socket is
    /// full (docs/libwebsockets.md#rules, rule 7).
    static let httpWriteChunk = 32 << 10
    /// Seconds a response may go without progress before lws drops the socket (lws's own `timeout_secs`).
    static let httpProgressTimeout: Int32 = 20

    /// Request methods lws parses, with the token holding each one's URI.
    private static let httpMethods: [(String, lws_token_indexes)] = [
        ("GET", WSI_TOKEN_GET_URI), ("HEAD", WSI_TOKEN_HEAD_URI), ("POST", WSI_TOKEN_POST_URI),
        ("PUT", WSI_TOKEN_PUT_URI), ("PATCH", WSI_TOKEN_PATCH_URI), ("DELETE", WSI_TOKEN_DELETE_URI),
        ("OPTIONS", WSI_TOKEN_OPTIONS_URI), ("CONNECT", WSI_TOKEN_CONNECT),
    ]

    // MARK: Requests (service thread)

    /// `LWS_CALLBACK_HTTP`: a complete request head without an upgrade. Returns -1 to close the socket.
    func httpRequest(_ wsi: OpaquePointer) -> Int32 {
        guard let server, !finished else { return -1 }
        let configuration = server.configuration
        let (method, uriToken) = Self.httpMethods.first { lws_hdr_total_length(wsi, $0.1) > 0 }
            ?? ("GET", WSI_TOKEN_GET_URI)
        let maxBody = configuration.httpHandler == nil ? 0 : max(0, configuration.maxHTTPBodySize)
        let methods = maxBody > 0 ? ["GET", "HEAD", "POST"] : ["GET", "HEAD"]
        if configuration.httpHandler != nil, !methods.contains(method) {
            // Bodies of other methods are never read: answer and close, so one is never taken for the next request.
            return refuse(wsi, HTTPResponse(status: 405, contentType: "text/plain; charset=utf-8",
                                            body: "\(method) not allowed\n",
                                            headers: ["allow": methods.joined(separator: ", ")]))
        }
        // Framing first, whatever answers the request: a kept-alive socket must never read a body as a request.
        let framing = Self.framing(wsi, method: method, maxBody: maxBody)
        if case .refuse(let status, let reason) = framing {
            return refuse(wsi, HTTPResponse(status: status, contentType: "text/plain; charset=utf-8",
                                            body: reason + "\n"))
        }
        guard let handler = configuration.httpHandler else {
            // No handler: plain HTTP on a WebSocket endpoint is answered as it always was.
            return Self.upgradeRequired(wsi)
        }
        // The socket sent a whole request head in time: the upgrade clock is no longer its bound (a body has a bound
        // of its own; lws's keep-alive and header timeouts bound what follows).
        handshakeTimer?.cancel()
        handshakeTimer = nil
        // lws starts no request before the previous one completed; a second one here would be a bug in this file.
        guard httpExchange == nil else { return -1 }

        let request = HTTPRequest(
            method: method, path: Self.header(wsi, uriToken) ?? "/", query: Self.queryArguments(wsi),
            headers: Self.captureHeaders(wsi, standard: Self.httpHeaders, extra: configuration.extraHeaderNames),
            peerAddress: Self.peerAddress(wsi))
        httpSequence += 1
        guard case .body(let length) = framing else {
            let exchange = HTTPExchange(sequence: httpSequence, isHead: method == "HEAD",
                                        deadline: .now + configuration.httpHandlerTimeout)
            httpExchange = exchange
            return startHandler(handler, request, exchange, wsi)
        }
        // A body follows: it has the upgrade's bound to arrive (slowloris), on the wsi's own timer.
        let exchange = HTTPExchange(sequence: httpSequence, isHead: false,
                                    deadline: .now + configuration.handshakeTimeout)
        exchange.phase = .receiving
        exchange.request = request
        exchange.expectedBody = length
        exchange.received.reserveCapacity(length)
        httpExchange = exchange
        lws_set_timer_usecs(wsi, Self.microseconds(configuration.handshakeTimeout))
        return 0
    }

    /// `LWS_CALLBACK_HTTP_BODY`: a piece of the request's body. Returns -1 to close the socket.
    ///
    /// A `POST` with `Content-Length: 0` is complete at its head: its handler (or its 426) started in
    /// ``httpRequest(_:)``. lws 4.1.6 still calls this with no bytes, then `LWS_CALLBACK_HTTP_BODY_COMPLETION`, right
    /// after `LWS_CALLBACK_HTTP` returns (server.c, `lws_http_action`, "POST with an explicit content-length of
    /// zero"; warmcat/libwebsockets#1337, #1421): both are ignored. Closing the socket there, as any other body
    /// outside ``HTTPExchange/Phase/receiving`` is, left such a request without an answer.
    func httpBody(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let exchange = httpExchange, case .receiving = exchange.phase else { return length == 0 ? 0 : -1 }
        guard exchange.received.count + length <= exchange.expectedBody else { return -1 }
        if let input, length > 0 {
            exchange.received.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        return 0
    }

    /// `LWS_CALLBACK_HTTP_BODY_COMPLETION`: the whole body arrived; the handler gets the request. Outside
    /// ``HTTPExchange/Phase/receiving`` it ends the empty body of a `POST` with `Content-Length: 0`, which was
    /// complete at its head (``httpBody(_:_:_:)``), and is ignored.
    func httpBodyComplete(_ wsi: OpaquePointer) -> Int32 {
        guard let exchange = httpExchange, case .receiving = exchange.phase else { return 0 }
        guard var request = exchange.request,
              exchange.received.count == exchange.expectedBody, let configuration = server?.configuration,
              let handler = configuration.httpHandler
        else { return -1 }
        request.body = exchange.received
        exchange.request = nil
        exchange.received = []
        exchange.phase = .handling
        exchange.deadline = .now + configuration.httpHandlerTimeout
        return startHandler(handler, request, exchange, wsi)
    }

    /// Runs `handler` on `request` in a task of its own, its deadline armed; reading pauses meanwhile.
    private func startHandler(_ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse,
                              _ request: HTTPRequest, _ exchange: HTTPExchange, _ wsi: OpaquePointer) -> Int32 {
        let sequence = exchange.sequence
        let timeout = exchange.deadline - .now
        // The handler runs off the service thread (rule 6); its response comes back through the mailbox.
        exchange.task = Task { [loop] in
            let response = await handler(request)
            try? loop.submit { [self] in httpResponded(sequence, response) }
        }
        // lws 4.1.6 does not read a socket while its transaction runs, yet leaves it in the poll set: anything the
        // peer sends meanwhile (a pipelined request, its FIN) keeps it readable, and the service thread spins on it,
        // starving libev's idle watcher and with it every lws timer. So reading stops until the response is out.
        lws_rx_flow_control(wsi, 0)
        // lws gave the request its `timeout_secs` (PENDING_TIMEOUT_HTTP_CONTENT) before this callback; a longer
        // handler bound must not be cut short by it. The bound itself is a per-wsi lws_sul timer
        // (LWS_CALLBACK_TIMER), which lws cancels with the wsi.
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Int32(clamping: timeout.components.seconds + 5))
        lws_set_timer_usecs(wsi, Self.microseconds(timeout))
        return 0
    }

    /// `LWS_CALLBACK_TIMER`: the body's or the handler's deadline. A body still arriving has its socket dropped; a
    /// handler still running gets its request answered 503.
    func httpTimerFired(_ wsi: OpaquePointer) -> Int32 {
        guard let exchange = httpExchange else { return 0 }
        if case .writing = exchange.phase { return 0 }
        let left = exchange.deadline - .now
        if left > .milliseconds(1) {
            lws_set_timer_usecs(wsi, Self.microseconds(left))
            return 0
        }
        if case .receiving = exchange.phase {
            // The body did not arrive in time: drop the socket, as an upgrade that never completes.
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            return 0
        }
        exchange.task?.cancel()
        let bound = server?.configuration.httpHandlerTimeout ?? .zero
        startResponse(HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8",
                                   body: "no answer within \(bound)\n",
                                   headers: ["retry-after": "1"]), exchange, wsi)
        return 0
    }

    /// Service thread, through the mailbox: the handler of request `sequence` answered. Dropped when that request
    /// was answered already (503), or the socket closed meanwhile.
    func httpResponded(_ sequence: Int, _ response: HTTPResponse) {
        guard !finished, let wsi, let exchange = httpExchange, exchange.sequence == sequence,
              case .handling = exchange.phase
        else {
            server?.droppedHTTPResponses += 1
            return
        }
        startResponse(response, exchange, wsi)
    }

    /// The socket closed (or the loop is ending): a handler still running is cancelled and its answer dropped.
    func abandonHTTP() {
        httpExchange?.task?.cancel()
        httpExchange = nil
    }

    // MARK: Responses (service thread)

    /// Prepares `response` for `exchange` and asks for `LWS_CALLBACK_HTTP_WRITEABLE`.
    private func startResponse(_ response: HTTPResponse, _ exchange: HTTPExchange, _ wsi: OpaquePointer) {
        exchange.task = nil
        exchange.phase = .writing
        let fallback = HTTPResponse(status: 500, contentType: "text/plain; charset=utf-8",
                                    body: "the response headers do not fit\n")
        guard let (head, body) = Self.encode(response, isHead: exchange.isHead, closing: false, wsi)
                ?? Self.encode(fallback, isHead: exchange.isHead, closing: false, wsi)
        else {
            // Cannot happen (the buffer is sized for the headers); close rather than leave the request hanging.
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            return
        }
        exchange.head = head
        exchange.body = body
        // Reading resumes first: lws 4.1.6 hands an rx-flow-controlled HTTP socket no WRITEABLE at all (its POLLIN
        // handler returns before the POLLOUT part), and the requested POLLOUT would then spin the service thread.
        lws_rx_flow_control(wsi, 1)
        lws_callback_on_writable(wsi)
    }

    /// `LWS_CALLBACK_HTTP_WRITEABLE`: writes the head, then the body in chunks while the socket takes them, then
    /// completes the transaction so a kept-alive socket reads its next request. Returns -1 to close.
    func httpWriteable(_ wsi: OpaquePointer) -> Int32 {
        guard let exchange = httpExchange, case .writing = exchange.phase else { return 0 }
        if !exchange.headWritten {
            let length = exchange.head.count - CLWS_PRE
            let written = exchange.head.withUnsafeMutableBufferPointer {
                lws_write(wsi, $0.baseAddress! + CLWS_PRE, length, LWS_WRITE_HTTP_HEADERS)
            }
            // lws buffers what the socket does not take; a short count means the socket is broken.
            if written < length { return -1 }
            exchange.headWritten = true
        }
        let total = exchange.body.count - CLWS_PRE
        while exchange.bodyOffset < total {
            if lws_send_pipe_choked(wsi) != 0 {
                lws_callback_on_writable(wsi)
                return 0
            }
            let offset = exchange.bodyOffset
            let chunk = min(Self.httpWriteChunk, total - offset)
            let kind = offset + chunk == total ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP
            let written = exchange.body.withUnsafeMutableBufferPointer {
                lws_write(wsi, $0.baseAddress! + CLWS_PRE + offset, chunk, kind)
            }
            if written < chunk { return -1 }
            exchange.bodyOffset += chunk
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Self.httpProgressTimeout)
        }
        httpExchange = nil
        // Keep-alive: lws resets the socket for the next request (deferring this while its own buffer drains), or
        // says to close (HTTP/1.0, `Connection: close`).
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// Answers a request the handler never sees, at once and with `connection: close`, then closes the socket
    /// (its body, if any, is never read). Returns the callback's -1.
    func refuse(_ wsi: OpaquePointer, _ response: HTTPResponse) -> Int32 {
        _ = Self.writeAtOnce(wsi, response, closing: true)
        // lws flushes what it buffered before it closes.
        return -1
    }

    /// Answers a plain HTTP request on an endpoint without an HTTP handler: 426, as a WebSocket endpoint answers,
    /// with its standard reason phrase; the socket is kept alive for its next request. Returns the callback's result.
    static func upgradeRequired(_ wsi: OpaquePointer) -> Int32 {
        let response = HTTPResponse(status: 426, contentType: "text/plain; charset=utf-8",
                                    body: "WebSocket upgrade required\n")
        guard writeAtOnce(wsi, response, closing: false) else { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// Writes a small `response` whole (lws buffers what the socket does not take); false when it cannot.
    private static func writeAtOnce(_ wsi: OpaquePointer, _ response: HTTPResponse, closing: Bool) -> Bool {
        guard let encoded = encode(response, isHead: false, closing: closing, wsi) else { return false }
        var (head, body) = encoded
        let headLength = head.count - CLWS_PRE, bodyLength = body.count - CLWS_PRE
        let written = head.withUnsafeMutableBufferPointer {
            lws_write(wsi, $0.baseAddress! + CLWS_PRE, headLength, LWS_WRITE_HTTP_HEADERS)
        }
        guard written >= headLength else { return false }
        if bodyLength > 0 {
            let sent = body.withUnsafeMutableBufferPointer {
                lws_write(wsi, $0.baseAddress! + CLWS_PRE, bodyLength, LWS_WRITE_HTTP_FINAL)
            }
            guard sent >= bodyLength else { return false }
        }
        return true
    }
}
