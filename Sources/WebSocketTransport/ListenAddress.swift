#if canImport(Glibc)
import Glibc
#endif

/// Where a ``WebSocketServer`` binds, and why it could not: the configured host resolved to an address before lws
/// sees it, and a failed listen explained in words (docs/libwebsockets.md#listening).
///
/// lws takes its `iface` as an interface name or a numeric address: a host name that is neither (`localhost`) makes
/// it defer the listen until such an interface appears, so nothing would listen and the port would read 0. A name is
/// therefore resolved here (IPv4 first, as ``HostResolver/system``) and the first address bound; the URL keeps the
/// name. An interface name (`lo`, `eth0`) is left to lws, as before.
enum ListenAddress {
    /// The address to bind for `host`: `host` itself when it is empty (every address), an IP literal or an interface
    /// name, else the first address its name resolves to.
    /// - Throws: ``TransportError/listenFailed(_:)`` "cannot resolve NAME: why".
    static func resolve(_ host: String) async throws -> String {
        if host.isEmpty || HostResolver.isAddress(host) || if_nametoindex(host) != 0 { return host }
        do {
            guard let first = try await HostResolver.system.resolve(host).first else {
                throw TransportError.listenFailed("cannot resolve \(host): no address")
            }
            return first
        } catch TransportError.connectFailed(let reason) {
            throw TransportError.listenFailed(reason)
        }
    }

    /// Why a TLS file of `tls` cannot be read, e.g. "cannot read the TLS certificate file cert.pem: no such file or
    /// directory"; nil when both can be opened for reading.
    static func unreadableFile(of tls: (certificateFile: String, privateKeyFile: String)?) -> String? {
        guard let tls else { return nil }
        for (what, path) in [("certificate", tls.certificateFile), ("private key", tls.privateKeyFile)] {
            let fd = open(path, O_RDONLY)
            if fd < 0 { return "cannot read the TLS \(what) file \(path): \(errorText(errno))" }
            close(fd)
        }
        return nil
    }

    /// Why `address`:`port` cannot be bound, found by binding a socket of our own there as lws would (with
    /// `SO_REUSEADDR`), e.g. "address already in use"; nil when that socket could bind it (or `address` is no IP
    /// literal), so the failure was something else.
    static func bindFailure(address: String, port: Int) -> String? {
        var v4 = sockaddr_in(), v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        } else if inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(clamping: port)).bigEndian
        } else {
            return nil
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errorText(errno) }
        defer { close(fd) }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let result = family == AF_INET
            ? withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            : withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        return result == 0 ? nil : errorText(errno)
    }

    /// `strerror(code)` as the rest of a sentence: "address already in use".
    static func errorText(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
