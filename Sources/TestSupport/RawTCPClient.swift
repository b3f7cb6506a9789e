import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP client socket on 127.0.0.1 for tests that speak below WebSocket: scripted bytes, silence, EOF.
/// Blocking reads run on a dedicated thread, never on the cooperative pool.
public final class RawTCPClient: Sendable {
    private let fd: Int32

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
