import Foundation
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 response as ``RawHTTPClient`` read it off the socket.
public struct RawHTTPResponse: Sendable, Hashable {
    /// The status code of the status line.
    public var status: Int
    /// The status line, e.g. `HTTP/1.1 200 OK`.
    public var statusLine: String
    /// The headers by lowercase name (a repeated name keeps its last value).
    public var headers: [String: String]
    /// The body: `content-length` bytes, or everything up to EOF when the response gives no length.
    public var body: [UInt8]
}

/// A plain TCP client that speaks HTTP/1.1 by hand, for tests of a server's plain HTTP side: requests go out byte
/// for byte as written, responses are read one at a time, so keep-alive (several requests on one socket) and a
/// `HEAD` response without a body can be checked. Blocking reads run on a thread of their own, never on the
/// cooperative pool; bound them with `withDeadline`.
public final class RawHTTPClient: Sendable {
    /// The socket.
    public let tcp: RawTCPClient
    /// Bytes read past the end of the last response (the start of the next one).
    private let pending = LockedValue<[UInt8]>([])

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int) throws {
        tcp = try RawTCPClient(port: port)
    }

    /// Writes `text` as it is (CRLFs included).
    public func send(_ text: String) throws {
        try tcp.write(Array(text.utf8))
    }

    /// Writes a request without a body: the request line, `Host`, then `headers` in order, then the blank line.
    public func request(_ method: String = "GET", _ target: String, headers: [(String, String)] = []) throws {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        try send(text + "\r\n")
    }

    /// Reads the next response. `toHEAD`: it answers a `HEAD` request, so no body follows whatever its headers
    /// say. Returns nil when the server closed the socket before the first byte of a response.
    public func response(toHEAD: Bool = false) async -> RawHTTPResponse? {
        let fd = tcp.fd
        let start = pending.withLock { bytes -> [UInt8] in
            defer { bytes = [] }
            return bytes
        }
        typealias Outcome = (RawHTTPResponse?, [UInt8])
        let (response, rest) = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: Self.read(fd, buffered: start, toHEAD: toHEAD))
            }
        }
        pending.withLock { $0 = rest }
        return response
    }

    /// Shuts the socket down in both directions, as a peer that goes away does.
    public func shutdown() {
        _ = Glibc.shutdown(tcp.fd, Int32(SHUT_RDWR))
    }

    /// Shuts down the sending side only (a half-close: FIN sent, responses still readable).
    public func finishSending() {
        _ = Glibc.shutdown(tcp.fd, Int32(SHUT_WR))
    }

    /// Blocking: one response from `fd`, starting with `buffered`; the response and the bytes read past its end.
    private static func read(_ fd: Int32, buffered: [UInt8], toHEAD: Bool) -> (RawHTTPResponse?, [UInt8]) {
        var bytes = buffered
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var eof = false
        func more() -> Bool {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 {
                eof = true
                return false
            }
            bytes += chunk.prefix(n)
            return true
        }
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            headEnd = bytes.firstRange(of: separator)?.lowerBound
            if headEnd == nil, !more() { return (nil, []) }
        }
        let lines = String(decoding: bytes[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.first ?? ""
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        var rest = Array(bytes[(headEnd! + separator.count)...])
        let noBody = toHEAD || status == 204 || status == 304 || (100..<200).contains(status)
        let body: [UInt8]
        if noBody {
            body = []
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            while rest.count < length, !eof {
                bytes = []
                if more() { rest += bytes }
            }
            body = Array(rest.prefix(length))
            rest = Array(rest.dropFirst(length))
        } else {
            while !eof {
                bytes = []
                if more() { rest += bytes }
            }
            body = rest
            rest = []
        }
        return (RawHTTPResponse(status: status, statusLine: statusLine, headers: headers, body: body), rest)
    }
}
