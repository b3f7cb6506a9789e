import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 exchange over a plain TCP socket on 127.0.0.1, for tests of what a server answers below any HTTP
/// library: the request is written as given (with `Connection: close` unless `headers` name a `Connection`), and
/// the response read until its `Content-Length` is in, the peer closes, or `timeout` passes with nothing read (the
/// socket's receive timeout, so the wait is bounded without a thread that cannot be cancelled). Runs on a thread of
/// its own, never on the cooperative pool.
public enum RawHTTPClient {
    /// A parsed response.
    public struct Response: Sendable, CustomStringConvertible {
        /// The status code.
        public var status: Int
        /// The headers, by lowercase name (a repeated header keeps its last value).
        public var headers: [String: String]
        /// The body bytes.
        public var body: [UInt8]
        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
        public var description: String { "HTTP \(status) \(headers) \(text.prefix(300))" }
    }

    /// Why no response could be read.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Sends `method path` with `headers` to 127.0.0.1:`port` and returns the response.
    public static func request(port: Int, _ method: String = "GET", _ path: String, headers: [String: String] = [:],
                               timeout: Duration = .seconds(10)) async throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if !headers.keys.contains(where: { $0.lowercased() == "connection" }) { head += "Connection: close\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        return try await exchange(port: port, bytes: Array((head + "\r\n").utf8), timeout: timeout * deadlineScale)
    }

    /// `GET path` (the common case).
    public static func get(port: Int, _ path: String, headers: [String: String] = [:]) async throws -> Response {
        try await request(port: port, "GET", path, headers: headers)
    }

    /// The port of a `ws://host:port/…` or `http://host:port/…` URL.
    public static func port(of url: String) -> Int? {
        guard let components = URLComponents(string: url) else { return nil }
        return components.port
    }

    private static func exchange(port: Int, bytes: [UInt8], timeout: Duration) async throws -> Response {
        let raw: [UInt8] = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    continuation.resume(returning: try blockingExchange(port: port, bytes: bytes, timeout: timeout))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        return try parse(raw)
    }

    private static func blockingExchange(port: Int, bytes: [UInt8], timeout: Duration) throws -> [UInt8] {
        let client = try RawTCPClient(port: port)
        try client.setReceiveTimeout(timeout)
        try client.write(bytes)
        var received: [UInt8] = []
        while true {
            guard let chunk = try client.receive() else { return received }  // the peer closed
            received += chunk
            if let expected = expectedLength(received), received.count >= expected { return received }
        }
    }

    /// The total length of the response once its head is in and it has a `Content-Length`.
    private static func expectedLength(_ bytes: [UInt8]) -> Int? {
        guard let end = headEnd(bytes) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
            if let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) {
                return end + 4 + length
            }
        }
        return nil
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }

    private static func parse(_ bytes: [UInt8]) throws -> Response {
        guard let end = headEnd(bytes) else {
            throw Failure(description: "no complete response head in \(bytes.count) bytes: "
                          + String(decoding: bytes.prefix(200), as: UTF8.self))
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/"), let status = Int(statusParts[1]) else {
            throw Failure(description: "not an HTTP status line: \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init), body.count > length { body = Array(body.prefix(length)) }
        return Response(status: status, headers: headers, body: body)
    }
}

extension RawTCPClient {
    /// Makes each ``receive()`` give up after `timeout` without data (`SO_RCVTIMEO`).
    public func setReceiveTimeout(_ timeout: Duration) throws {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        guard setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw SilentTCPListener.SocketError(description: "setsockopt SO_RCVTIMEO: \(errno)")
        }
    }

    /// The next bytes, blocking; `nil` once the peer has closed (or reset).
    /// - Throws: when the receive timeout (``setReceiveTimeout(_:)``) passes with nothing read.
    public func receive() throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let n = recv(descriptor, &buffer, buffer.count, 0)
        if n > 0 { return Array(buffer.prefix(n)) }
        if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
            throw SilentTCPListener.SocketError(description: "nothing received within the receive timeout")
        }
        return nil
    }
}
