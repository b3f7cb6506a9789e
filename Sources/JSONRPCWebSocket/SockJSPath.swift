/// What a request path under a SockJS prefix asks for (docs/wire-protocol.md#sockjs): the URL scheme of
/// sockjs/sockjs-protocol `sockjs-protocol-0.3.3.py` ("Session URLs", "Raw WebSocket url"), of its WebSocket
/// transport only. Pure: a path in, a route out.
package enum SockJSPath: Sendable, Hashable {
    /// `<prefix>/info`: the server's capabilities, before a client opens a session.
    case info(prefix: String)
    /// `<prefix>/websocket`: a plain WebSocket, without SockJS framing (what `KurentoTreeClient.java` dials).
    case rawWebSocket(prefix: String)
    /// `<prefix>/<server>/<session>/websocket`: a SockJS session over the WebSocket transport. `server` is for load
    /// balancers and ignored; `session` is the client's random id, which a WebSocket session may share with another.
    case session(prefix: String, server: String, session: String)

    /// The SockJS route of `path` under one of `prefixes` (each without a trailing slash), or `nil` for any other
    /// path: another transport, a server or session segment that is empty or holds a dot (404 in the
    /// specification's `test_invalidPaths`), more or fewer segments.
    package init?(path: String, prefixes: Set<String>) {
        guard let prefix = prefixes.first(where: { path.hasPrefix($0 + "/") }) else { return nil }
        let segments = path.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        switch segments.count {
        case 1 where segments[0] == "info":
            self = .info(prefix: prefix)
        case 1 where segments[0] == "websocket":
            self = .rawWebSocket(prefix: prefix)
        case 3 where segments[2] == "websocket":
            let (server, session) = (segments[0], segments[1])
            guard !server.isEmpty, !session.isEmpty, !server.contains("."), !session.contains(".") else { return nil }
            self = .session(prefix: prefix, server: String(server), session: String(session))
        default:
            return nil
        }
    }

    /// The prefix the path is under.
    package var prefix: String {
        switch self {
        case .info(let prefix), .rawWebSocket(let prefix), .session(let prefix, _, _): prefix
        }
    }

    /// Whether it is a WebSocket endpoint (a raw WebSocket or a session), not `/info`.
    package var isWebSocket: Bool {
        if case .info = self { false } else { true }
    }
}
