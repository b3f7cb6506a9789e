import JSONRPC
import JSONRPCWebSocket

/// SockJS's WebSocket transport on Room's and Tree's paths (docs/wire-protocol.md#sockjs), as the stock Tree server
/// serves it: Kurento/kurento-tree `KurentoTreeServerApp.java` registers its handler `withSockJS()` on
/// `/kurento-tree`, and kurento-java's `JsonRpcConfiguration` turns that into Spring's SockJS service with
/// `setSessionCookieNeeded(false)`.
extension RoomServer {
    /// The paths SockJS is served under: `/room` and ``treePaths``. Under each, `GET <prefix>/info`, the SockJS
    /// session URLs `<prefix>/<server>/<session>/websocket` and the raw WebSocket `<prefix>/websocket`
    /// (docs/wire-protocol.md#sockjs). The plain WebSocket on the prefix itself stays.
    public static let sockJSPrefixes: Set<String> = treePaths.union(["/room"])

    /// The SockJS route of `path`, if it is one.
    static func sockJSRoute(_ path: String) -> SockJSPath? {
        SockJSPath(path: path, prefixes: sockJSPrefixes)
    }

    /// Whether an upgrade to `path` is served: Room's and Tree's paths, and their SockJS WebSocket endpoints.
    static func servesWebSocket(on path: String) -> Bool {
        paths.contains(path) || treePaths.contains(path) || sockJSRoute(path)?.isWebSocket == true
    }

    /// Whether an upgrade to `path` speaks Tree: a Tree path, or a SockJS endpoint under one.
    static func servesTree(on path: String) -> Bool {
        treePaths.contains(path) || sockJSRoute(path).map { treePaths.contains($0.prefix) } == true
    }

    /// The SockJS framing of an upgrade to `path`: options for a SockJS session URL, `nil` for any other path.
    func sockJSOptions(for path: String) -> SockJSOptions? {
        guard case .session? = Self.sockJSRoute(path) else { return nil }
        return SockJSOptions(heartbeatInterval: configuration.sockJSHeartbeatInterval, clock: configuration.clock)
    }

    /// The answer to a plain-HTTP request on a SockJS path, `nil` for another path:
    /// - `GET <prefix>/info` → 200, `{"entropy":…,"origins":["*:*"],"cookie_needed":false,"websocket":true}`, not
    ///   cacheable, with CORS headers (the request's `Origin`, `*` without one or for `null`, and credentials);
    /// - a WebSocket endpoint without an upgrade → 400 `Can "Upgrade" only to "WebSocket".`
    ///   (sockjs-protocol-0.3.3.py `WebsocketHttpErrors.test_httpMethod`).
    ///
    /// Other SockJS transports (XHR, streaming, polling, iframe) answer 404, as for any unknown path.
    static func sockJSResponse(to request: HTTPRequest) -> HTTPResponse? {
        switch sockJSRoute(request.path) {
        case .info?:
            // sockjs-protocol-0.3.3.py InfoTest; the body's shape and headers as Spring's AbstractSockJsService
            // infoHandler writes them. The entropy is in the specification's range, 0 to 2^32-1.
            let body = #"{"entropy":\#(UInt32.random(in: .min ... .max)),"origins":["*:*"],"#
                + #""cookie_needed":false,"websocket":true}"#
            var headers = ["cache-control": "no-store, no-cache, must-revalidate, max-age=0"]
            headers.merge(sockJSCORSHeaders(origin: request.headers["origin"])) { $1 }
            return HTTPResponse(status: 200, contentType: "application/json;charset=UTF-8", body: body, headers: headers)
        case .rawWebSocket?, .session?:
            return text(400, #"Can "Upgrade" only to "WebSocket"."#)
        case nil:
            return nil
        }
    }

    /// The CORS headers of a SockJS answer (sockjs-protocol-0.3.3.py `verify_cors`; Spring allows any origin with
    /// credentials): the request's origin, or `*` without one or for `null` (a page from a `file://` URL).
    static func sockJSCORSHeaders(origin: String?) -> [String: String] {
        let allowed = origin.flatMap { $0.isEmpty || $0 == "null" ? nil : $0 }
        var headers = ["access-control-allow-origin": allowed ?? "*", "access-control-allow-credentials": "true"]
        if allowed != nil { headers["vary"] = "Origin" }
        return headers
    }
}
