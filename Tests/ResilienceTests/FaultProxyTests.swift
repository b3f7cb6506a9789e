import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// TestSupport's FaultProxy itself, on raw TCP sockets: a one-way black hole and a reset that reaches both peers.
@Suite struct FaultProxyTests {
    /// A blocking TCP socket with a 5 s receive timeout (scaled), connected or accepted.
    struct Socket {
        let fd: Int32

        init(_ fd: Int32) {
            self.fd = fd
            var timeout = timeval(tv_sec: 5 * deadlineScale, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        func send(_ text: String) -> Int { Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }

        /// What one `recv` returns: the text, or the errno of a failure (0: the end of the stream).
        func receive(waiting: Bool = true) -> Result<String, Errno> {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, waiting ? 0 : Int32(MSG_DONTWAIT))
            if count > 0 { return .success(String(decoding: buffer[..<count], as: UTF8.self)) }
            return .failure(Errno(code: count == 0 ? 0 : errno))
        }
    }

    struct Errno: Error, Equatable { let code: Int32 }

    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A listener on 127.0.0.1 and its port.
    static func listener() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(bound == 0 && listen(fd, 4) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func connect(port: Int) throws -> Socket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        return Socket(fd)
    }

    @Test func aBlackHoleServerToClientSwallowsOnlyThatDirectionAndAResetReachesBothPeers() async throws {
        // Given a client and a server connected through the proxy
        let (listening, port) = try Self.listener()
        defer { close(listening) }
        let proxy = try FaultProxy(targetPort: port)
        defer { proxy.stop() }
        let client = try Self.connect(port: proxy.port)
        let server = Socket(accept(listening, nil, nil))
        defer { close(client.fd); close(server.fd) }
        let link = try await proxy.waitForLink()

        // When the link's server→client direction is a black hole
        link.blackHole(.serverToClient)

        // Then the client's bytes still reach the server, and the server's are read and discarded
        #expect(client.send("hello") == 5)
        #expect(server.receive() == .success("hello"))
        #expect(server.send("swallowed") == 9)
        try await proxy.waitUntilDiscarded("swallowed", .serverToClient)
        #expect(client.receive(waiting: false) == .failure(Errno(code: EAGAIN)))
        #expect(proxy.discardedBytes(.serverToClient) == 9 && proxy.discardedBytes(.clientToServer) == 0)

        // And a reset reaches both peers as ECONNRESET (no FIN: neither reads a clean end of stream)
        link.reset()
        #expect(client.receive() == .failure(Errno(code: ECONNRESET)))
        #expect(server.receive() == .failure(Errno(code: ECONNRESET)))
        try await waitUntil("the link to be gone") { proxy.openConnections == 0 }
    }
}
