import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP client socket on 127.0.0.1 for tests that speak below WebSocket: scripted bytes, silence, EOF.
/// Blocking reads run on a dedicated thread, never on the cooperative pool.
public final class RawTCPClient: Sendable {
    let fd: Int32

    public init(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SilentTCPListener.SocketError(description: "socket: \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            throw SilentTCPListener.SocketError(description: "connect: \(errno)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SilentTCPListener.SocketError(description: "send: \(errno)") }
            offset += n
        }
    }

    /// Reads until the peer closes; true on EOF or reset.
    public func waitForEOF() async throws -> Bool {
        let fd = self.fd
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if n <= 0 { continuation.resume(returning: true); return }
                }
            }
        }
    }
}

extension RawTCPClient {
    /// Sends a minimal WebSocket upgrade request for `path` (RFC 6455 §4.1) and nothing else.
    public func sendUpgradeRequest(path: String = "/", host: String = "127.0.0.1") throws {
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try write(Array(request.utf8))
    }
}

extension RawTCPClient {
    /// Reads everything until the peer closes (or resets) and returns it.
    public func readToEOF() async -> [UInt8] {
        let fd = self.fd
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 64 << 10)
                while case let n = recv(fd, &buffer, buffer.count, 0), n > 0 { received += buffer.prefix(n) }
                continuation.resume(returning: received)
            }
        }
    }

    /// Reads the head of an HTTP response (up to its blank line, or until the peer closes) and returns its status
    /// code: 101 for an accepted WebSocket upgrade, 429 for a refused one; `nil` when no status line came within
    /// `timeout` (a receive timeout on the socket: the deadline of docs/testing.md#deadlines).
    public func readStatusCode(timeout: Duration = .seconds(10)) async -> Int? {
        let fd = self.fd
        let scaled = timeout * deadlineScale
        var limit = timeval(tv_sec: Int(scaled.components.seconds),
                            tv_usec: Int(scaled.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let head = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var received: [UInt8] = [], byte: UInt8 = 0
                while !received.suffix(4).elementsEqual([13, 10, 13, 10]), recv(fd, &byte, 1, 0) == 1 { received.append(byte) }
                continuation.resume(returning: String(decoding: received, as: UTF8.self))
            }
        }
        // "HTTP/1.1 101 Switching Protocols"
        let fields = head.split(separator: " ", maxSplits: 2)
        return fields.count >= 2 && fields[0].hasPrefix("HTTP/") ? Int(fields[1]) : nil
    }

    /// One masked client frame (RFC 6455 §5.3), whatever its payload: invalid UTF-8 in a text frame included.
    public static func maskedFrame(_ opcode: HostilePeer.Opcode, _ payload: [UInt8]) -> [UInt8] {
        var header = HostilePeer.header(opcode, length: UInt64(payload.count))
        header[1] |= 0x80
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return header + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// The close code of the first close frame the server sent after its `101` response in `bytes` (a capture
    /// from ``readToEOF()``), or `nil` when there is none.
    public static func closeCode(in bytes: [UInt8]) -> UInt16? {
        let end = Array("\r\n\r\n".utf8)
        guard let start = (0...max(0, bytes.count - 4)).first(where: { Array(bytes[$0..<min($0 + 4, bytes.count)]) == end })
        else { return nil }
        var i = start + 4
        while i + 1 < bytes.count {
            let opcode = bytes[i] & 0x0F
            var length = Int(bytes[i + 1] & 0x7F), offset = i + 2
            if length == 126, offset + 2 <= bytes.count {
                length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
                offset += 2
            } else if length == 127 {
                return nil
            }
            if opcode == 8 {
                return offset + 2 <= bytes.count ? UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) : 1005
            }
            i = offset + length
        }
        return nil
    }
}
