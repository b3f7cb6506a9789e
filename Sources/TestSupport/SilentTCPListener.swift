import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on 127.0.0.1 that accepts connections (the kernel completes the TCP handshake from the
/// backlog) and never reads or answers: the peer for handshake-timeout tests.
public final class SilentTCPListener: Sendable {
    private let fd: Int32
    /// The ephemeral port it listens on.
    public let port: Int

    public struct SocketError: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws {
        (fd, port) = try Self.listeningSocket()
    }

    /// A TCP socket listening on 127.0.0.1 on an ephemeral port, and that port.
    static func listeningSocket(backlog: Int32 = 16) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(description: "socket: \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        }
        guard bound == 0, listen(fd, backlog) == 0 else {
            close(fd)
            throw SocketError(description: "bind/listen: \(errno)")
        }
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }

    deinit { close(fd) }

    /// A port on 127.0.0.1 that nothing listens on (bound, then released).
    public static func closedPort() throws -> Int {
        let listener = try SilentTCPListener()
        return listener.port
    }
}
