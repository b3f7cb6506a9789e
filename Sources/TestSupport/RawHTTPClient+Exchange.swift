import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension RawHTTPClient {
    /// One request on a socket of its own (`Connection: close` unless `headers` name a `Connection`), and its
    /// response; a non-empty `body` is sent with its `Content-Length`. Every read of the socket gives up after `timeout` without data (`SO_RCVTIMEO`), so the exchange
    /// is bounded without a read that cannot be cancelled.
    /// - Throws: ``NoResponse`` when the socket closed (or stayed silent past `timeout`) before a response.
    public static func exchange(port: Int, _ method: String = "GET", _ target: String,
                                headers: [String: String] = [:], body: String = "",
                                timeout: Duration = .seconds(10)) async throws -> RawHTTPResponse {
        let client = try RawHTTPClient(port: port)
        try client.tcp.setReceiveTimeout(timeout * deadlineScale)
        var headers = headers
        if !body.isEmpty { headers["Content-Length"] = "\(body.utf8.count)" }
        var lines = headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if !headers.keys.contains(where: { $0.lowercased() == "connection" }) { lines.append(("Connection", "close")) }
        try client.request(method, target, headers: lines)
        if !body.isEmpty { try client.send(body) }
        guard let response = await client.response(toHEAD: method == "HEAD") else {
            throw NoResponse(description: "no response to \(method) \(target) on port \(port)")
        }
        return response
    }

    /// The server closed the socket, or stayed silent past the timeout, before a response.
    public struct NoResponse: Error, CustomStringConvertible {
        public var description: String
    }

    /// `GET target` on a socket of its own (``exchange(port:_:_:headers:body:timeout:)``).
    public static func get(port: Int, _ target: String, headers: [String: String] = [:]) async throws
        -> RawHTTPResponse
    {
        try await exchange(port: port, "GET", target, headers: headers)
    }

    /// The port of a `ws://host:port/…` or `http://host:port/…` URL.
    public static func port(of url: String) -> Int? {
        URLComponents(string: url)?.port
    }
}

extension RawHTTPResponse {
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

extension RawTCPClient {
    /// Makes each read of the socket give up after `timeout` without data (`SO_RCVTIMEO`): the read then ends as
    /// if the peer had closed.
    public func setReceiveTimeout(_ timeout: Duration) throws {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        guard setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw SilentTCPListener.SocketError(description: "setsockopt SO_RCVTIMEO: \(errno)")
        }
    }
}
